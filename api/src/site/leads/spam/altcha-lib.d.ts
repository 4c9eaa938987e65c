// altcha-lib names its entry points only in package.json's `exports`, which the API's Node10
// module resolution does not read (Node's require does, at run time): its own CommonJS typings.
declare module 'altcha-lib' {
  export * from 'altcha-lib/dist/cjs/v2/index';
}
declare module 'altcha-lib/algorithms/sha' {
  export * from 'altcha-lib/dist/cjs/v2/algorithms/sha';
}
