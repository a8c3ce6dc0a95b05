// The limits are counted in characters (Unicode code points, core/validation.ts), and a browser
// counts an input's maxlength in UTF-16 units, in which an emoji or a character of an astral script
// is two: a field at the limit's own number refused to submit an edit of a value the API had taken
// (6,000 emoji). The field allows the most units the limit's characters can take; the server
// counts exactly, and its refusal is shown at the field.
export const maxUnits = (characters: number) => characters * 2;
