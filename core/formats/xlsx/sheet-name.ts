// A name Excel takes for a sheet: 1 to 31 characters, none of : \ / ? * [ ], no apostrophe at
// either end, and not "History" (Excel keeps that name for its change tracking). A language code
// is one already (`de`, `pt-BR`, `qps-ploc`); anything else is made one.
export function sheetName(wanted: string): string {
  const name = [...wanted.replace(/[:\\/?*[\]]/g, '_')].slice(0, 31).join('').replace(/^'+|'+$/g, '');
  if (name === '') return 'Sheet1';
  return name.toLowerCase() === 'history' ? `${name}_` : name;
}
