export declare const DEFAULT_CHROMIUM_PATH: string;
export declare const DEFAULT_CHROMIUM_PACKAGE: string;
export declare function chromiumPath(): string;
