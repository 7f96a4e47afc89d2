import type { Expression, FunctionDeclaration, Node, Statement } from 'luaparse';
import { childNodes, isCall } from '../ast.ts';
import { type Facts, GuardFacts, NO_FACTS, intersect, union, writesOnlyWhenAbsent } from '../guard-facts.ts';
import { ownerArguments } from '../owner-arguments.ts';
import type { LuaProgram } from '../program.ts';
import { MUTATING_COMMANDS } from '../redis-commands.ts';
import type { ReportFinding, Rule } from '../rule.ts';

/**
 * A script that takes an owner or token (named in its header comment, `-- ARGV[1] = owner`, or
 * compared with a stored `owner`/`token` field) must not write on a path that has not first
 * compared the stored owner with that argument: otherwise a stale attempt overwrites a newer
 * one's work. A path that read the key and found it absent or empty (register_or_get's
 * `if #h > 0 then return ... end`), or a SET NX, is guarded too: there is no one to overwrite.
 *
 * The walk follows if/elseif/else, `and`/`or`, `not`, early returns and error(); loop bodies
 * are walked once and add no guard after the loop; calls to local helper functions are walked
 * with the caller's guards. What a guard protects beyond the owner (e.g. release also checking
 * the state) is not this rule's business.
 */
export const ownerCheckFirst: Rule = {
  id: 'owner-check-first',
  description: 'a script taking an owner/token writes on a path that has not compared the stored owner first',
  severity: 'advice',
  check(program, report) {
    for (const context of program.contexts) {
      const owners = ownerArguments(program, context);
      if (owners.size === 0) continue;
      const label = [...owners].map(([index, name]) => `ARGV[${index}] (${name})`).join(' or ');
      new OwnerFlow(program, new GuardFacts(program, new Set(owners.keys())), report, label).block(
        context.body,
        NO_FACTS,
      );
    }
  },
};

/** Facts after a statement, or null when no path falls through it (return, error, break). */
type Outcome = Facts | null;

class OwnerFlow {
  private readonly helpersOnStack = new Set<FunctionDeclaration>();
  private readonly helpersWalked = new Set<string>();
  private readonly helperIds = new Map<FunctionDeclaration, number>();

  constructor(
    private readonly program: LuaProgram,
    private readonly guards: GuardFacts,
    private readonly report: ReportFinding,
    private readonly ownerLabel: string,
  ) {}

  block(statements: Statement[], facts: Facts): Outcome {
    let current: Outcome = facts;
    for (const statement of statements) {
      if (current === null) return null;
      current = this.statement(statement, current);
    }
    return current;
  }

  private statement(node: Statement, facts: Facts): Outcome {
    switch (node.type) {
      case 'LocalStatement':
      case 'AssignmentStatement':
        this.effects(node, facts);
        return facts;
      case 'CallStatement':
        return this.callStatement(node.expression, facts);
      case 'ReturnStatement':
        node.arguments.forEach((argument) => this.effects(argument, facts));
        return null;
      case 'BreakStatement':
        return null;
      case 'IfStatement':
        return this.ifStatement(node.clauses, facts);
      case 'WhileStatement':
        this.effects(node.condition, facts);
        this.block(node.body, union(facts, this.guards.when(node.condition, true)));
        return facts;
      case 'RepeatStatement': {
        const end = this.block(node.body, facts);
        this.effects(node.condition, end ?? facts);
        return facts;
      }
      case 'ForNumericStatement':
        [node.start, node.end, ...(node.step ? [node.step] : [])].forEach((part) => this.effects(part, facts));
        this.block(node.body, facts);
        return facts;
      case 'ForGenericStatement':
        node.iterators.forEach((iterator) => this.effects(iterator, facts));
        this.block(node.body, facts);
        return facts;
      case 'DoStatement':
        return this.block(node.body, facts);
      default:
        // Function declarations run when called; their bodies are walked at the call.
        return facts;
    }
  }

  private callStatement(call: Expression, facts: Facts): Outcome {
    this.effects(call, facts);
    if (!isCall(call)) return facts;
    const name = this.program.semantics.globalName(call.base);
    if (name === 'error') return null;
    const [asserted] = call.type === 'CallExpression' ? call.arguments : [];
    if (name === 'assert' && asserted) return union(facts, this.guards.when(asserted, true));
    return facts;
  }

  private ifStatement(clauses: Extract<Statement, { type: 'IfStatement' }>['clauses'], facts: Facts): Outcome {
    let untaken = facts;
    let hasElse = false;
    const fallThrough: Facts[] = [];
    for (const clause of clauses) {
      let entry = untaken;
      if (clause.type === 'ElseClause') {
        hasElse = true;
      } else {
        this.effects(clause.condition, untaken);
        entry = union(untaken, this.guards.when(clause.condition, true));
        untaken = union(untaken, this.guards.when(clause.condition, false));
      }
      const end = this.block(clause.body, entry);
      if (end) fallThrough.push(end);
    }
    if (!hasElse) fallThrough.push(untaken);
    return fallThrough.length === 0 ? null : fallThrough.reduce(intersect);
  }

  /** Checks the writes an expression or simple statement performs, in evaluation order. */
  private effects(node: Node, facts: Facts): void {
    if (node.type === 'FunctionDeclaration') return;
    if (node.type === 'LogicalExpression') {
      // `stored == ARGV[1] and redis.call('DEL', KEYS[1])`: the right side runs only after the left.
      this.effects(node.left, facts);
      this.effects(node.right, union(facts, this.guards.when(node.left, node.operator === 'and')));
      return;
    }
    childNodes(node).forEach((child) => this.effects(child, facts));
    if (isCall(node)) this.call(node, facts);
  }

  private call(
    node: Extract<Node, { type: 'CallExpression' | 'StringCallExpression' | 'TableCallExpression' }>,
    facts: Facts,
  ): void {
    const { semantics } = this.program;
    const redisCall = semantics.redisCall(node);
    if (redisCall) {
      const command = redisCall.command;
      const guarded = facts.has('owner') || facts.has('absent') || writesOnlyWhenAbsent(this.program, redisCall);
      if (command && MUTATING_COMMANDS.has(command) && !guarded) {
        this.report(
          node,
          `${command} can run before the stored owner is compared with ${this.ownerLabel}; compare it first`,
        );
      }
      return;
    }
    const helper = semantics.functionOf(node.base);
    if (helper) this.helper(helper, facts);
  }

  private helper(fn: FunctionDeclaration, facts: Facts): void {
    if (!this.helperIds.has(fn)) this.helperIds.set(fn, this.helperIds.size);
    const visit = `${this.helperIds.get(fn)}:${[...facts].sort().join(',')}`;
    if (this.helpersOnStack.has(fn) || this.helpersWalked.has(visit)) return;
    this.helpersWalked.add(visit);
    this.helpersOnStack.add(fn);
    this.block(fn.body, facts);
    this.helpersOnStack.delete(fn);
  }
}
