// The review's figures: expected scores to a tenth (a true minus sign, as format.js writes
// whole numbers), luck with its sign.
import { MINUS } from "../lib/format.js";

export function decimal(n, places = 1) {
  const text = Math.abs(n).toFixed(places);
  return n < 0 && Number(text) !== 0 ? `${MINUS}${text}` : text;
}

export function signedDecimal(n, places = 1) {
  const text = decimal(n, places);
  return text.startsWith(MINUS) ? text : `+${text}`;
}
