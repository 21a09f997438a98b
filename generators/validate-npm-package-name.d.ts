// validate-npm-package-name ships no types; this is the part generators/names.ts uses.
declare module 'validate-npm-package-name' {
  interface Result {
    validForNewPackages: boolean;
    validForOldPackages: boolean;
    errors?: string[];
    warnings?: string[];
  }
  function validate(name: string): Result;
  export = validate;
}
