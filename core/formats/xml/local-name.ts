// An element's name without its namespace prefix (readXml keeps names as written): writers that
// prefix a vocabulary (the Open XML SDK's `<x:row>`) mean the same elements as those that do not.
export const localName = (name: string) => name.slice(name.indexOf(':') + 1);
