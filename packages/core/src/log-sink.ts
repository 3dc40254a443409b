/** The part of a pino logger that domain packages write to (structured object first, then the message). */
export interface LogSink {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}
