// Tests read many JSON bodies and assert on their shape with expect(); typing each one would add
// noise without catching anything the assertions do not. (Merged overloads come first.)
export {};
declare global {
  interface Response {
    json(): Promise<any>;
  }
}
