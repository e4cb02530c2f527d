export declare const FUNCTION_NAME_PATTERN: RegExp;

export declare function isFunctionFolderName(name: string): boolean;

export declare function npmSpecifierToBare(specifier: string): string;

export interface BundledFunction {
  code: string;
  map: string | undefined;
  /** Absolute paths of the source files the bundle was made from. */
  inputs: string[];
}

export declare function bundleFunction(options: {
  entry: string;
  shim: string;
  sourcemap?: 'inline' | 'linked' | false;
}): Promise<BundledFunction>;
