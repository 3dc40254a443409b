export { decodeCursor, encodeCursor, type Cursor } from './cursor';
export { HistoryDrain, type HistoryDrainOptions } from './history-drain';
export {
  hookHealth,
  sentNothingCounts,
  type AttemptedOutcome,
  type HookHealth,
  type SentNothingCounts,
} from './history-health';
export {
  HistoryReader,
  type AccountHooks,
  type DeliveryLine,
  type HistoryFilter,
  type Page,
  type PageRequest,
} from './history-reader';
export { HistoryWriter, INSERT_BATCH } from './history-writer';
export { historyAnswers, openHistory, type HistoryDatabase, type HistoryStore } from './open-history';
export { dayOf, partitionName, Partitions } from './partitions';
export { migrate, SCHEMA_VERSION } from './schema';
export { checkSchemaName, type Sql, type SqlClient } from './sql-client';
export { pgClient, redactedUrl, type PgClientOptions } from './pg-client';
export { isHistoryUnreachable } from './database-unreachable';
export { DeliveryLog } from './delivery-log';
export { eraseHistory } from './history-erasure';
export {
  AuditReader,
  AuditWriter,
  decodeAuditCursor,
  encodeAuditCursor,
  parseAuditEntry,
  type AuditCursor,
  type AuditPage,
} from './audit-log';
export { AuditDrain, type AuditDrainOptions } from './audit-drain';
export { AuditTrail } from './audit-trail';
export {
  FILTER_TEXT_MAX,
  filterTextProblem,
  parseFilterTime,
  type FilterTextField,
  type FilterTime,
} from './filter-values';
