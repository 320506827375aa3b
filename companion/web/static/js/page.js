// Static pages (the café's table list): translate the page in the browser's language.

import { languageSwitch, pickLanguage, setLanguage } from "./i18n.js";

await setLanguage(pickLanguage());
const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang"));
if (select) languageSwitch(select, { remember: true });
