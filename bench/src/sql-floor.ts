/**
 * The floor of a ledger transfer: the textbook double-entry transfer in bare SQL, on tables
 * of its own in the same PostgreSQL database, through node-postgres with the pool size
 * Prisma's adapter uses (pg's default, 10). One transaction: lock both accounts in id order,
 * check the balance, insert the transaction and its two entries, move both balances, commit.
 * It is what any correct transfer costs on this database; nothing the product adds (the
 * idempotency record, the owner's and agent's history rows, the ledger's triggers and checks,
 * the ORM) is in it.
 */
import pg from 'pg';

export interface SqlFloor {
  /** `count` accounts holding `balance` atomic units each; their ids. */
  createAccounts(count: number, balance: bigint): Promise<string[]>;
  transfer(from: string, to: string, amount: bigint): Promise<void>;
  close(): Promise<void>;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bench_floor_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  balance bigint NOT NULL CHECK (balance >= 0)
);
CREATE TABLE IF NOT EXISTS bench_floor_transactions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  type text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS bench_floor_entries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  transaction_id uuid NOT NULL REFERENCES bench_floor_transactions (id),
  account_id uuid NOT NULL REFERENCES bench_floor_accounts (id),
  amount bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS bench_floor_entries_transaction ON bench_floor_entries (transaction_id);
CREATE INDEX IF NOT EXISTS bench_floor_entries_account ON bench_floor_entries (account_id);
`;

export async function openSqlFloor(databaseUrl: string): Promise<SqlFloor> {
  const pool = new pg.Pool({ connectionString: databaseUrl });
  await pool.query(SCHEMA);
  return {
    async createAccounts(count, balance) {
      const { rows } = await pool.query<{ id: string }>(
        'INSERT INTO bench_floor_accounts (balance) SELECT $1::bigint FROM generate_series(1, $2::int) RETURNING id',
        [balance.toString(), count],
      );
      return rows.map((row) => row.id);
    },
    async transfer(from, to, amount) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{ id: string; balance: string }>(
          'SELECT id, balance FROM bench_floor_accounts WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE',
          [[from, to]],
        );
        const source = rows.find((row) => row.id === from);
        if (!source || rows.length !== 2) throw new Error('bench floor: unknown account');
        if (BigInt(source.balance) < amount) throw new Error('bench floor: insufficient funds');
        const [transaction] = (await client.query<{ id: string }>("INSERT INTO bench_floor_transactions (type) VALUES ('transfer') RETURNING id")).rows;
        await client.query('INSERT INTO bench_floor_entries (transaction_id, account_id, amount) VALUES ($1, $2, $3), ($1, $4, $5)', [
          transaction!.id,
          from,
          (-amount).toString(),
          to,
          amount.toString(),
        ]);
        await client.query(
          `UPDATE bench_floor_accounts AS a SET balance = a.balance + d.amount
             FROM (VALUES ($1::uuid, $2::bigint), ($3::uuid, $4::bigint)) AS d (id, amount) WHERE a.id = d.id`,
          [from, (-amount).toString(), to, amount.toString()],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
