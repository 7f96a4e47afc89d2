export { PROTOCOL_VERSION, type HelloMessage, type HelloReply, type RefuseReply, type RequestMessage, type ResponseReply } from './protocol.ts';
export { ProcessSession, ProcessUnavailableError, type ProcessSessionOptions } from './session.ts';
export { processSubjects } from './subjects.ts';
