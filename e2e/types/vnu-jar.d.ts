// vnu-jar (no types of its own) exports the path of the W3C Nu HTML checker's jar as a String object.
declare module 'vnu-jar' {
  const jarPath: string;
  export default jarPath;
}
