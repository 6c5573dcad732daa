// What the live cells say, in each language of the site, chosen from the page's <html lang>.
// Numbers go through Intl so that Persian pages show Persian digits.
//
// To add a language: copy the `en` block, translate every entry, keep the functions'
// parameters. A missing language falls back to English.

const en = {
  run: "Run",
  stop: "Stop",
  reset: "Reset",
  restart: "Restart",
  restartTitle: "Restart Python: a fresh session, earlier definitions are lost",
  resetTitle: "Put back the original code",
  runTitle: "Run the code (Ctrl+Enter)",
  runWaiting: "Starting Python…",
  cellLabel: (n) => `Live Python cell ${n}`,
  editorLabel: (n) => `Python code, cell ${n}`,
  editorHint: "Ctrl+Enter runs the code. To leave the editor, press Escape, then Tab.",
  outputLabel: (n) => `Output of cell ${n}`,
  waiting: "The code will run as soon as Python is ready.",
  queued: "Waiting for another cell to finish…",
  running: "Running…",
  done: (seconds) => `Done in ${seconds} s.`,
  error: "The code stopped with an error.",
  stopped: "Stopped.",
  timeout: (seconds) => `Stopped: the code ran longer than the ${seconds} s limit.`,
  restartedByUser: "Python was restarted before the code finished.",
  sessionLost: "The Python session was restarted, so definitions from earlier cells are gone: run those cells again if you need them.",
  cancelled: "Not run.",
  failed: (message) => `Python could not start: ${message}`,
  truncated: (lines, kilobytes) => `Output truncated: only the first ${lines} lines or ${kilobytes} KB are shown.`,
  downloading: (loaded, total) => `Loading Python: ${loaded} of ${total} MB`,
  starting: "Starting Python…",
  installing: "Installing attention_py…",
  ready: "Python is ready",
  unavailable: "Python is unavailable",
  progressLabel: "Loading Python",
};

const he = {
  run: "הרצה",
  stop: "עצירה",
  reset: "איפוס",
  restart: "הפעלה מחדש",
  restartTitle: "הפעלה מחדש של Python: סביבה חדשה, וההגדרות הקודמות יאבדו",
  resetTitle: "החזרת הקוד המקורי",
  runTitle: "הרצת הקוד (Ctrl+Enter)",
  runWaiting: "Python נטען…",
  cellLabel: (n) => `תא קוד אינטראקטיבי ${n}`,
  editorLabel: (n) => `קוד Python, תא ${n}`,
  editorHint: "Ctrl+Enter מריץ את הקוד. כדי לצאת מהעורך, יש ללחוץ על Escape ואחר כך על Tab.",
  outputLabel: (n) => `הפלט של תא ${n}`,
  waiting: "הקוד ירוץ ברגע ש־Python יהיה מוכן.",
  queued: "ממתין לסיום של תא אחר…",
  running: "הקוד רץ…",
  done: (seconds) => `הסתיים תוך ${seconds} שניות.`,
  error: "הקוד נעצר בשגיאה.",
  stopped: "הריצה נעצרה.",
  timeout: (seconds) => `הריצה נעצרה: הקוד רץ יותר ממגבלת הזמן של ${seconds} שניות.`,
  restartedByUser: "Python הופעל מחדש לפני שהקוד הסתיים.",
  sessionLost: "Python הופעל מחדש, ולכן ההגדרות מהתאים הקודמים אבדו: אם צריך אותן, יש להריץ את התאים האלה שוב.",
  cancelled: "הקוד לא הורץ.",
  failed: (message) => `לא ניתן היה להפעיל את Python: ${message}`,
  truncated: (lines, kilobytes) => `הפלט קוצר: מוצגות רק ${lines} השורות הראשונות או \u2066${kilobytes} KB\u2069 הראשונים.`,
  // The isolates (U+2066 ... U+2069) keep "12.3 MB" in that order inside the Hebrew sentence.
  downloading: (loaded, total) => `טוען את Python: \u2066${loaded} MB\u2069 מתוך \u2066${total} MB\u2069`,
  starting: "מפעיל את Python…",
  installing: "מתקין את attention_py…",
  ready: "Python מוכן",
  unavailable: "Python אינו זמין",
  progressLabel: "טעינת Python",
};

const fa = {
  run: "اجرا",
  stop: "توقف",
  reset: "بازنشانی",
  restart: "راه‌اندازی دوباره",
  restartTitle: "راه‌اندازی دوبارهٔ پایتون: نشستی تازه، و تعریف‌های قبلی از دست می‌روند",
  resetTitle: "برگرداندن کد اصلی",
  runTitle: "اجرای کد (Ctrl+Enter)",
  runWaiting: "در حال راه‌اندازی پایتون…",
  cellLabel: (n) => `سلول کد تعاملی ${n}`,
  editorLabel: (n) => `کد پایتون، سلول ${n}`,
  editorHint: "با Ctrl+Enter کد اجرا می‌شود. برای بیرون رفتن از ویرایشگر، Escape و سپس Tab را بزنید.",
  outputLabel: (n) => `خروجی سلول ${n}`,
  waiting: "کد به محض آماده شدن پایتون اجرا می‌شود.",
  queued: "در انتظار پایان اجرای سلولی دیگر…",
  running: "در حال اجرا…",
  done: (seconds) => `در ${seconds} ثانیه اجرا شد.`,
  error: "اجرای کد با خطا متوقف شد.",
  stopped: "اجرا متوقف شد.",
  timeout: (seconds) => `اجرا متوقف شد: اجرای کد از سقف ${seconds} ثانیه طول کشید.`,
  restartedByUser: "پایتون پیش از پایان اجرای کد دوباره راه‌اندازی شد.",
  sessionLost: "پایتون دوباره راه‌اندازی شد و تعریف‌های سلول‌های قبلی از دست رفته‌اند: اگر به آن‌ها نیاز دارید، آن سلول‌ها را دوباره اجرا کنید.",
  cancelled: "کد اجرا نشد.",
  failed: (message) => `پایتون راه‌اندازی نشد: ${message}`,
  truncated: (lines, kilobytes) => `خروجی کوتاه شد: فقط ${lines} خط یا ${kilobytes} کیلوبایت نخست نمایش داده می‌شود.`,
  downloading: (loaded, total) => `بارگیری پایتون: ${loaded} از ${total} مگابایت`,
  starting: "در حال راه‌اندازی پایتون…",
  installing: "در حال نصب attention_py…",
  ready: "پایتون آماده است",
  unavailable: "پایتون در دسترس نیست",
  progressLabel: "بارگیری پایتون",
};

const LANGUAGES = { en, he, fa };

/**
 * The strings for this page's language, plus `number(x, digits)` formatted for it and `dir`,
 * the page's direction (Material puts dir="rtl" on <body>, not on <html>).
 */
export function pageStrings(doc = document) {
  const lang = (doc.documentElement.lang || "en").toLowerCase().split("-")[0];
  const strings = LANGUAGES[lang] || en;
  const formats = new Map();
  const number = (value, digits = 0) => {
    if (!formats.has(digits)) {
      formats.set(digits, new Intl.NumberFormat(LANGUAGES[lang] ? lang : "en", {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      }));
    }
    return formats.get(digits).format(value);
  };
  const dir = doc.body ? getComputedStyle(doc.body).direction : "ltr";
  return { ...strings, lang: LANGUAGES[lang] ? lang : "en", dir, number };
}
