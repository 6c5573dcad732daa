// The changes of one figure waiting for Python, as one object: merged as they arrive (later
// wins), sent as one call when the figure's previous call has answered, so a drag never
// builds a backlog. What the batch carries besides its changes decides what a failure means:
// a state saved before a reload (`restore`), the page address's values (`address`), changes
// that already timed out or crashed Python once (`retry`).

export class Batch {
  constructor() {
    this.changes = {};
    this.sources = new Set(); // the elements the changes came from
    this.firstInputAt = null; // event time of the oldest input in it
    this.inputs = 0; // how many inputs were merged into it
    this.restore = false;
    this.address = false;
    this.retry = false;
    this.sentAt = null;
  }

  /** Merges one input's change (from the element `source`, by `event`) into the batch. */
  add(change, source, event) {
    Object.assign(this.changes, change);
    if (source) this.sources.add(source);
    this.firstInputAt ??= event?.timeStamp ?? performance.now();
    this.inputs += 1;
    return this;
  }

  /**
   * Puts a sent batch that was not applied back under this one (newer changes win), with
   * what it carried; `ownFault` marks it as having timed out or crashed Python once.
   */
  takeBack(sent, ownFault) {
    this.changes = Object.assign(sent.changes, this.changes);
    this.restore ||= sent.restore;
    this.address ||= sent.address;
    this.retry ||= ownFault; // a second chance is per failure that may be its own
    for (const el of sent.sources) this.sources.add(el);
    this.firstInputAt = Math.min(sent.firstInputAt, this.firstInputAt ?? Infinity);
    this.inputs += sent.inputs;
    return this;
  }
}
