/** Where the database's parts (the pool, migrations, the LISTEN connection) report what they do. */
export type Logger = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
};
