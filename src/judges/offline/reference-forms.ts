// The shorter forms a reference answer holds. Question sets written by people often add to the
// answer itself: a note in brackets ("ABBA (he directed almost all of ABBA's promotional films)"),
// a clause that explains it ("Nicholas Breakspear, who was Adrian IV from 1154 to 1159"), or a
// second acceptable answer ("The Spot, or thespot.com"). An answer that states the head has
// answered; the rest is the reference's own elaboration. Found on EVOUNA TriviaQA's development
// half (issue 26), where most of the judge's false fails were answers stating such a head.

/** A bracketed note: (…), […], （…）. */
const BRACKETED = /\s*[([（][^()[\]（）]*[)\]）]/gu;
/** Where an explaining clause or an alternative starts: ", who", ", which", "; ", " or ". */
const ELABORATION =
  /,\s*(?:who|which|where|when|whose|as|after|before|because|since|but|and\s+(?:was|is|were|are))\b|;\s|\s+-\s+|\s+(?:–|—)\s+/iu;
const ALTERNATIVE = /,?\s+or\s+|\s*\/\s*/iu;

/**
 * The reference's shorter forms, without the reference itself: brackets removed, then the head
 * before an explaining clause, then each side of an "or". Each form keeps at least one letter or
 * digit; repeats are dropped.
 */
export function referenceForms(reference: string): string[] {
  const forms: string[] = [];
  const add = (text: string) => {
    const form = text
      .trim()
      .replace(/[.,;:]+$/u, "")
      .trim();
    if (/[\p{L}\p{N}]/u.test(form) && form !== reference.trim() && !forms.includes(form)) {
      forms.push(form);
    }
  };
  const unbracketed = reference.replace(BRACKETED, "");
  add(unbracketed);
  const head = unbracketed.split(ELABORATION)[0] ?? unbracketed;
  add(head);
  for (const text of [unbracketed, head]) {
    const sides = text.split(ALTERNATIVE);
    if (sides.length > 1) for (const side of sides) add(side);
  }
  return forms;
}
