/** Whether a store target names a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (target: string): boolean => /^postgres(ql)?:\/\//i.test(target);
