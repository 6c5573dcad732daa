// What the figure host itself says, in each language of the site (the figures' own words
// come from docs/figure-strings/<lang>.yml, drawn by Python). Chosen from <html lang>; a
// missing language falls back to English. Loading progress reuses the live cells' strings
// (strings.js), so "Loading Python: 4.1 of 12.2 MB" reads the same everywhere on a page.
//
// To add a language: copy the `en` block and translate every entry.

const en = {
  starting: "Python is starting; the figure will follow your input as soon as it is ready.",
  restarting: "Python is restarting; the figure will catch up in a moment.",
  unavailable: "Python could not start, so this figure cannot change. What it shows is still correct.",
  failedUpdate: "The figure could not be redrawn. Try again, or reload the page.",
};

const he = {
  starting: "Python נטען; האיור יתעדכן לפי הפעולות בו מיד כשהטעינה תסתיים.",
  restarting: "Python מופעל מחדש; האיור יתעדכן בעוד רגע.",
  unavailable: "לא ניתן היה להפעיל את Python, ולכן האיור לא יכול להשתנות. מה שמוצג בו עדיין נכון.",
  failedUpdate: "לא ניתן היה לצייר את האיור מחדש. אפשר לנסות שוב או לטעון את הדף מחדש.",
};

const fa = {
  starting: "پایتون در حال راه‌اندازی است؛ شکل به محض آماده شدن آن، تغییرهای شما را نشان می‌دهد.",
  restarting: "پایتون دوباره راه‌اندازی می‌شود؛ شکل تا لحظه‌ای دیگر به‌روز می‌شود.",
  unavailable: "پایتون راه‌اندازی نشد، پس این شکل نمی‌تواند تغییر کند. آنچه نشان می‌دهد همچنان درست است.",
  failedUpdate: "شکل دوباره رسم نشد. دوباره امتحان کنید یا صفحه را از نو بارگیری کنید.",
};

const LANGUAGES = { en, he, fa };

/** The host's strings for `lang` (a figure's or the page's language). */
export function figureHostStrings(lang) {
  const key = String(lang || "en").toLowerCase().split("-")[0];
  return LANGUAGES[key] || en;
}
