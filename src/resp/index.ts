export { RespSplitter, type Boundary, type Direction } from './splitter.ts';
export { firstKey, isDataCommand, isPlainRead, isPlainWrite, ruleName } from './commands.ts';
export {
  ANY_DATA_COMMAND,
  ArmedRule,
  validateRule,
  type CaughtCommand,
  type CommandAction,
  type CommandRule,
} from './rules.ts';
export { RespPoints, type Address, type CommandFaults } from './point.ts';
