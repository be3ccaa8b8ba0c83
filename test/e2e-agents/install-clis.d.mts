/** Types for install-clis.mjs (plain Node, no build), so tests can check its pins. */
export declare const cacheDir: string;
export declare const CLIS: { id: string; pkg: string; version: string; bin: string; with?: string[] }[];
export declare function binPath(cli: { pkg: string; version: string; bin: string }): string;
