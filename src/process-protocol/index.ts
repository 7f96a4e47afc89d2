/** The process protocol (docs/process-protocol.md) as the runner speaks it: messages, the child process, the session. The Subject adapter over a session is src/impl/process-subjects.ts. */
export {
  PROTOCOL_VERSION,
  type HelloMessage,
  type HelloReply,
  type RefuseReply,
  type RequestMessage,
  type ResponseReply,
} from './protocol.ts';
export { ProcessSession, ProcessUnavailableError, type ProcessSessionOptions } from './session.ts';
