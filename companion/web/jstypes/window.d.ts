// What the pages hang on `window` (the test hooks of companion/web/static/README.md) and the
// browser globals they use without a declaration in TypeScript's DOM library.

interface Window {
  /** Older Safari's AudioContext. */
  webkitAudioContext?: typeof AudioContext;
  /** The names of the tunes played so far (show.js). */
  __sounds?: string[];
  __pad?: any;
  __display?: any;
  __host?: any;
  __replay?: any;
  __keepAwake?: any;
}

// The pages keep "no timer" as null, and clearing null is a no-op in every browser (the id
// converts to 0, which no timer has): let the checker accept it as well.
declare function clearTimeout(id: number | null | undefined): void;
declare function clearInterval(id: number | null | undefined): void;
