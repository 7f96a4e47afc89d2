import type { Expression, ForNumericStatement } from 'luaparse';
import { walk } from '../ast.ts';
import type { LuaProgram } from '../program.ts';
import { keyPositions, keySpecOf } from '../redis-commands.ts';
import type { Rule } from '../rule.ts';

/**
 * A script blocks its node for as long as it runs, so a caller must not be able to choose how
 * long a loop runs. The rule is deliberately simple and errs towards flagging:
 *
 * A *bound* is a numeric constant; `#t` where t is KEYS, ARGV or the reply of a redis.call
 * whose key arguments are all declared keys (the data a key holds is the caller's own, and its
 * size is decided by scripts, not by one argument); a local never reassigned after being set
 * to a bound; the variable of an enclosing numeric for whose own limits are bounds; and
 * + - * / % ^, unary minus, math.floor/ceil/abs of bounds, math.max of bounds, and math.min
 * with at least one bound (the minimum is at most that bound).
 *
 * - A numeric `for` needs both its start and its limit to be bounds (a huge negative start runs
 *   as long as a huge limit) and no step or a non-zero constant step (step 0 never ends in 5.1).
 * - A `while` / `repeat` needs its exit to depend on an ordering comparison (< <= > >=) between
 *   a bound and something that is not a constant: `while i <= #ARGV`. Whether the counter
 *   actually advances is not checked; `while true`, `until cursor == '0'` and the like are flagged.
 * - A generic `for` walks a finite table (ipairs/pairs) and is not checked.
 */
export const unboundedLoop: Rule = {
  id: 'unbounded-loop',
  description: 'a loop whose trip count is not bounded by a constant, #KEYS, #ARGV or a reply on a declared key',
  severity: 'error',
  check(program, report) {
    const bounds = new Bounds(program);
    walk(program.chunk, (node) => {
      if (node.type === 'ForNumericStatement') {
        for (const [part, expression] of [
          ['start', node.start],
          ['limit', node.end],
        ] as const) {
          if (!bounds.isBound(expression)) {
            report(
              expression,
              `numeric for ${part} ${program.quote(expression)} is not a constant, #KEYS, #ARGV or the length of a reply on a declared key`,
            );
          }
        }
        if (node.step && !bounds.isNonZeroConstant(node.step)) {
          report(node.step, `numeric for step ${program.quote(node.step)} is not a non-zero constant`);
        }
      } else if (node.type === 'WhileStatement' || node.type === 'RepeatStatement') {
        const exitsWhen = node.type === 'RepeatStatement';
        if (!bounds.exitsOnBound(node.condition, exitsWhen)) {
          const keyword = node.type === 'WhileStatement' ? 'while' : 'repeat-until';
          report(
            node,
            `${keyword} condition ${program.quote(node.condition)} does not compare against a constant, #KEYS, #ARGV or the length of a reply on a declared key`,
          );
        }
      }
    });
  },
};

const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '^']);
const ORDERING = new Set(['<', '<=', '>', '>=']);

class Bounds {
  private readonly visiting = new Set<Expression | ForNumericStatement>();

  constructor(private readonly program: LuaProgram) {}

  isNonZeroConstant(expression: Expression): boolean {
    const value = this.program.semantics.literalNumber(expression);
    return value !== undefined && value !== 0;
  }

  /** Whether the loop ends once `condition` evaluates to `exitValue`, by a comparison with a bound. */
  exitsOnBound(condition: Expression, exitValue: boolean): boolean {
    switch (condition.type) {
      case 'UnaryExpression':
        return condition.operator === 'not' && this.exitsOnBound(condition.argument, !exitValue);
      case 'LogicalExpression': {
        const left = this.exitsOnBound(condition.left, exitValue);
        const right = this.exitsOnBound(condition.right, exitValue);
        // `a and b` is false as soon as either is; `a or b` is true as soon as either is.
        const eitherSuffices = (condition.operator === 'and') !== exitValue;
        return eitherSuffices ? left || right : left && right;
      }
      case 'BinaryExpression': {
        if (!ORDERING.has(condition.operator)) return false;
        const { left, right } = condition;
        const literal = (e: Expression) => this.program.semantics.literalNumber(e) !== undefined;
        return (this.isBound(left) && !literal(right)) || (this.isBound(right) && !literal(left));
      }
      default:
        return false;
    }
  }

  isBound(expression: Expression): boolean {
    if (this.visiting.has(expression)) return false;
    this.visiting.add(expression);
    try {
      return this.checkBound(expression);
    } finally {
      this.visiting.delete(expression);
    }
  }

  private checkBound(expression: Expression): boolean {
    const { semantics } = this.program;
    switch (expression.type) {
      case 'NumericLiteral':
        return true;
      case 'UnaryExpression':
        if (expression.operator === '-') return this.isBound(expression.argument);
        return expression.operator === '#' && this.hasBoundedLength(expression.argument);
      case 'BinaryExpression':
        return ARITHMETIC.has(expression.operator) && this.isBound(expression.left) && this.isBound(expression.right);
      case 'Identifier': {
        const binding = semantics.bindingOf(expression);
        if (!binding || binding.assignments.length > 0) return false;
        if (binding.kind === 'local') return binding.init !== undefined && this.isBound(binding.init);
        if (binding.kind === 'forNumeric' && binding.owner?.type === 'ForNumericStatement')
          return this.isBoundedFor(binding.owner);
        return false;
      }
      case 'CallExpression': {
        const args = expression.arguments;
        const callee = expression.base;
        const math = (name: string) => semantics.isGlobalMember(callee, 'math', name);
        if (math('min')) return args.some((arg) => this.isBound(arg));
        if (math('max')) return args.length > 0 && args.every((arg) => this.isBound(arg));
        if (math('floor') || math('ceil') || math('abs')) return args.length === 1 && this.isBound(args[0]);
        return false;
      }
      default:
        return false;
    }
  }

  private isBoundedFor(loop: ForNumericStatement): boolean {
    if (this.visiting.has(loop)) return false;
    this.visiting.add(loop);
    try {
      return this.isBound(loop.start) && this.isBound(loop.end) && (!loop.step || this.isNonZeroConstant(loop.step));
    } finally {
      this.visiting.delete(loop);
    }
  }

  private hasBoundedLength(table: Expression): boolean {
    const { semantics } = this.program;
    const kind = semantics.classify(table).kind;
    if (kind === 'keysTable' || kind === 'argvTable') return true;
    const call = semantics.redisCall(semantics.unalias(table));
    const spec = call?.command && keySpecOf(call.command);
    if (!call || !spec) return false;
    const positions = keyPositions(spec, call.args.length);
    return (
      positions.length > 0 && positions.every((position) => semantics.classify(call.args[position]).kind === 'key')
    );
  }
}
