import type { Expression } from 'luaparse';
import { isCall } from './ast.ts';
import type { LuaProgram } from './program.ts';
import { PRESENCE_COUNT_COMMANDS } from './redis-commands.ts';
import type { RedisCall } from './semantics.ts';

/**
 * What a path has established before a write: `owner` — the stored owner/token was compared
 * equal to the caller's; `absent` — the key (or its field) was read and found absent or empty,
 * or a SET NX just created it, so nobody else's record can be overwritten.
 */
export type Guard = 'owner' | 'absent';
export type Facts = ReadonlySet<Guard>;

export const NO_FACTS: Facts = new Set();

export function union(a: Facts, b: Facts): Facts {
  return new Set([...a, ...b]);
}

export function intersect(a: Facts, b: Facts): Facts {
  return new Set([...a].filter((fact) => b.has(fact)));
}

const FLIPPED: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==', '~=': '~=' };

function compare(left: number, operator: string, right: number): boolean {
  switch (operator) {
    case '<':
      return left < right;
    case '<=':
      return left <= right;
    case '>':
      return left > right;
    case '>=':
      return left >= right;
    case '==':
      return left === right;
    case '~=':
      return left !== right;
    default:
      return false;
  }
}

/** SETNX and HSETNX reply 1 when they created the key (field), 0 when it was there: both truthy in Lua. */
const CREATED_COUNT_COMMANDS: ReadonlySet<string> = new Set(['SETNX', 'HSETNX']);

/** `SET key value NX ...`, `SETNX` and `HSETNX`: writes that only happen when the key (or field) is absent. */
export function writesOnlyWhenAbsent(program: LuaProgram, call: RedisCall): boolean {
  return (call.command !== undefined && CREATED_COUNT_COMMANDS.has(call.command)) || setNx(program, call);
}

function setNx(program: LuaProgram, call: RedisCall): boolean {
  return (
    call.command === 'SET' &&
    call.args.slice(2).some((arg) => program.semantics.literalString(arg)?.toUpperCase() === 'NX')
  );
}

/** Derives the guards that hold when a condition evaluates to true or to false. */
export class GuardFacts {
  constructor(
    private readonly program: LuaProgram,
    private readonly ownerIndexes: ReadonlySet<number>,
  ) {}

  when(condition: Expression, truth: boolean): Facts {
    switch (condition.type) {
      case 'UnaryExpression':
        return condition.operator === 'not' ? this.when(condition.argument, !truth) : NO_FACTS;
      case 'LogicalExpression': {
        const leftTrue = this.when(condition.left, true);
        const leftFalse = this.when(condition.left, false);
        const right = this.when(condition.right, truth);
        if (condition.operator === 'and') {
          return truth ? union(leftTrue, right) : intersect(leftFalse, union(leftTrue, right));
        }
        return truth ? intersect(leftTrue, union(leftFalse, right)) : union(leftFalse, right);
      }
      case 'BinaryExpression':
        return union(
          this.ownerComparison(condition.operator, condition.left, condition.right, truth),
          this.presenceComparison(condition.operator, condition.left, condition.right, truth),
        );
      case 'Identifier': {
        // `local matches = stored == ARGV[1]` then `if not matches`.
        const init = this.program.semantics.constantInit(this.program.semantics.bindingOf(condition));
        if (
          init &&
          (init.type === 'BinaryExpression' || init.type === 'LogicalExpression' || init.type === 'UnaryExpression')
        ) {
          return this.when(init, truth);
        }
        return this.truthiness(condition, truth);
      }
      default:
        return this.truthiness(condition, truth);
    }
  }

  private truthiness(condition: Expression, truth: boolean): Facts {
    const { semantics } = this.program;
    // SET NX replies OK or nil; SETNX's 0 would be truthy, so only a comparison (below) tells for it.
    const call = semantics.redisCall(semantics.unalias(condition));
    if (call && setNx(this.program, call)) return truth ? new Set(['absent']) : NO_FACTS;
    // A missing value reads as false (nil bulk reply), so a falsy read means absent.
    return !truth && semantics.isStored(condition) ? new Set(['absent']) : NO_FACTS;
  }

  private ownerComparison(operator: string, left: Expression, right: Expression, truth: boolean): Facts {
    if (operator !== '==' && operator !== '~=') return NO_FACTS;
    const equal = (operator === '==') === truth;
    const compared =
      (this.isStored(left) && this.isOwnerArgument(right)) || (this.isStored(right) && this.isOwnerArgument(left));
    return compared && equal ? new Set(['owner']) : NO_FACTS;
  }

  /** `#h == 0`, `#h > 0` false, `EXISTS == 0`, `stored == false`: the key was found absent. */
  private presenceComparison(operator: string, left: Expression, right: Expression, truth: boolean): Facts {
    const { semantics } = this.program;
    const absent: Facts = new Set(['absent']);
    for (const [value, other, op] of [
      [left, right, operator],
      [right, left, FLIPPED[operator]],
    ] as const) {
      if (
        (op === '==' || op === '~=') &&
        this.isStored(value) &&
        ((other.type === 'BooleanLiteral' && !other.value) || other.type === 'NilLiteral')
      ) {
        return (op === '==') === truth ? absent : NO_FACTS;
      }
      const bound = semantics.literalNumber(other);
      if (op === undefined || bound === undefined) continue;
      const holds = (count: number) => compare(count, op, bound) === truth;
      // `HSETNX(...) == 1`: this path created the key, so it was absent.
      if (this.isCreatedCount(value)) return holds(1) && !holds(0) ? absent : NO_FACTS;
      const most = this.presenceCountLimit(value);
      if (most === undefined) continue;
      const largest = Math.min(most, Math.max(1, Math.ceil(Math.abs(bound)) + 1));
      const someCountHolds = Array.from({ length: largest }, (_, i) => i + 1).some(holds);
      return holds(0) && !someCountHolds ? absent : NO_FACTS;
    }
    return NO_FACTS;
  }

  private isStored(expression: Expression): boolean {
    return this.program.semantics.isStored(expression);
  }

  private isOwnerArgument(expression: Expression): boolean {
    const value = this.program.semantics.classify(expression);
    return value.kind === 'argv' && value.index !== undefined && this.ownerIndexes.has(value.index);
  }

  /**
   * `#reply` of a stored table, or a reply that counts presence (EXISTS, HLEN, ...): the largest
   * count it can be (EXISTS of n keys: n; otherwise unbounded), or undefined when it counts nothing.
   */
  private presenceCountLimit(expression: Expression): number | undefined {
    const { semantics } = this.program;
    const value = this.unwrapNumber(expression);
    if (value.type === 'UnaryExpression' && value.operator === '#')
      return semantics.isStored(value.argument) ? Infinity : undefined;
    const call = semantics.redisCall(value);
    if (call?.command === undefined || !PRESENCE_COUNT_COMMANDS.has(call.command)) return undefined;
    // `EXISTS k == 1 then return end`: one key counts 0 or 1, so "not 1" means absent. A call or `...`
    // among the arguments (unpack(KEYS)) may stand for several keys, so then the count is open.
    const countable = call.args.every((arg) => arg.type !== 'VarargLiteral' && !isCall(arg));
    return call.command === 'EXISTS' && countable ? call.args.length : Infinity;
  }

  private isCreatedCount(expression: Expression): boolean {
    const call = this.program.semantics.redisCall(this.unwrapNumber(expression));
    return call?.command !== undefined && CREATED_COUNT_COMMANDS.has(call.command);
  }

  /** The expression under `tonumber(...)` and local aliases. */
  private unwrapNumber(expression: Expression): Expression {
    const { semantics } = this.program;
    const value = semantics.unalias(expression);
    if (value.type === 'CallExpression' && semantics.globalName(value.base) === 'tonumber' && value.arguments[0]) {
      return this.unwrapNumber(value.arguments[0]);
    }
    return value;
  }
}
