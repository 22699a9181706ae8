// Which database errors mean "the database is away" (try again shortly: 503) rather than "this
// statement is wrong" (a bug or bad data). Used by the error handler and the save batcher.

/** SQLSTATE classes and codes of a lost or refused connection. */
const CONNECTION_SQLSTATE = /^(08|57P0[1-3]|53300)/; // connection exceptions; admin/crash shutdown, cannot connect now; too many connections
/** Node's socket error codes for a server that is not there or went away. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** pg's own messages when a connection ends or cannot be had (they carry no code). */
const PG_CONNECTION_MESSAGE = /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed|Connection ended|timeout exceeded when trying to connect|Cannot use a pool after calling end/i;

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return CONNECTION_SQLSTATE.test(code);
  }
  if (PG_CONNECTION_MESSAGE.test(error.message)) return true;
  // AggregateError from a failed connect to several addresses (localhost as ::1 and 127.0.0.1).
  if (error instanceof AggregateError) return error.errors.some(isConnectionError);
  return false;
}

/**
 * An error that says the connection the statement was sent on had already been ended by the
 * server (terminated while idle, the server shutting down) or broke under it, rather than that no
 * connection could be had: the statement may be sent again on another connection.
 */
export function isLostConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code === '57P01' || code === '57P02' || code === 'ECONNRESET' || code === 'EPIPE') return true;
  return /Connection terminated|not queryable|Client was closed|Connection ended/i.test(error.message);
}

const sqlState = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** A unique index refused the row (23505): someone else wrote the same key first. */
export const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';

/** A foreign key refused the write (23503): a row it points to, or one pointing to it, is gone or still there. */
export const isForeignKeyViolation = (error: unknown) => sqlState(error) === '23503';

/** A write to an earlier season's books or questions (0033_seasons.sql): the season's name, else undefined. */
export function pastSeasonOf(error: unknown): string | undefined {
  if (sqlState(error) !== 'SN001') return undefined;
  return String((error as { detail?: unknown }).detail ?? '');
}
