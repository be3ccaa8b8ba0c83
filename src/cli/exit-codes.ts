/** Exit codes: 0 done, 1 the thing asked about is not well (degraded, refused, not running), 2 usage. */
export const EXIT_OK = 0;
export const EXIT_FAIL = 1;
export const EXIT_USAGE = 2;
