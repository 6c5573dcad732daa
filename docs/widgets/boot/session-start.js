// The page's Python session and the policy that starts it, without the editor: small, so
// the entry can load it first and Python starts as early as the policy allows.
import { pageSession } from "../runtime/python-session.js";
import { startWhenUseful } from "./start-policy.js";

export function startPageSession(roots) {
  const session = pageSession();
  startWhenUseful(session, roots);
  return session;
}
