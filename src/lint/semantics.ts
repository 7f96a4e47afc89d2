import type { Expression, FunctionDeclaration, Identifier } from 'luaparse';
import { type CallNode, callArguments, isCall } from './ast.ts';
import { luaStringValue } from './lua-string.ts';
import type { Binding, ScopeInfo } from './scopes.ts';

/** What an expression is known to hold, as far as the key and argument rules care. */
export type Value =
  | { kind: 'keysTable' }
  | { kind: 'argvTable' }
  | { kind: 'key' }
  | { kind: 'argv'; index: number | undefined }
  | { kind: 'literal' }
  | { kind: 'concatenation' }
  | { kind: 'other' };

/** A `redis.call` / `redis.pcall`; `command` is upper-cased when the script names it literally. */
export interface RedisCall {
  node: CallNode;
  command: string | undefined;
  /** The arguments after the command name. */
  args: Expression[];
}

const OTHER: Value = { kind: 'other' };

/**
 * Answers questions about values in one parsed script: is this expression a declared key, an
 * ARGV entry, the result of a Redis call? It follows local aliases that are never reassigned,
 * and the parameters of local helper functions whose every call passes the same kind of value.
 */
export class Semantics {
  private readonly bindingValues = new Map<Binding, Value>();
  private readonly storedBindings = new Map<Binding, boolean>();

  constructor(
    private readonly scopes: ScopeInfo,
    /** In a Functions library KEYS and ARGV are the callback's parameters, not globals. */
    private readonly isLibrary: boolean,
    /** Registered Functions callbacks: their first two parameters are KEYS and ARGV. */
    private readonly callbacks: ReadonlySet<FunctionDeclaration>,
  ) {}

  bindingOf(identifier: Identifier): Binding | undefined {
    return this.scopes.bindingOf(identifier);
  }

  /** The name of a global variable an expression reads, or undefined for anything else. */
  globalName(expression: Expression): string | undefined {
    return expression.type === 'Identifier' && !this.bindingOf(expression) ? expression.name : undefined;
  }

  /** Whether the expression is `global.member` (or `global['member']`) of a global table. */
  isGlobalMember(expression: Expression, global: string, member: string): boolean {
    if (expression.type === 'MemberExpression') {
      return (
        expression.indexer === '.' &&
        expression.identifier.name === member &&
        this.globalName(expression.base) === global
      );
    }
    if (expression.type === 'IndexExpression') {
      return this.literalString(expression.index) === member && this.globalName(expression.base) === global;
    }
    return false;
  }

  /** The binding's single value when it is a local never assigned after its declaration. */
  constantInit(binding: Binding | undefined): Expression | undefined {
    if (!binding || binding.assignments.length > 0) return undefined;
    return binding.kind === 'local' || binding.kind === 'localFunction' ? binding.init : undefined;
  }

  /** Follows never-reassigned local aliases to the expression they stand for. */
  unalias(expression: Expression): Expression {
    const seen = new Set<Binding>();
    let current = expression;
    while (current.type === 'Identifier') {
      const binding = this.bindingOf(current);
      const init = this.constantInit(binding);
      if (!binding || !init || seen.has(binding)) break;
      seen.add(binding);
      current = init;
    }
    return current;
  }

  literalString(expression: Expression): string | undefined {
    const value = this.unalias(expression);
    return value.type === 'StringLiteral' ? luaStringValue(value) : undefined;
  }

  literalNumber(expression: Expression): number | undefined {
    const value = this.unalias(expression);
    if (value.type === 'NumericLiteral') return value.value;
    if (value.type === 'UnaryExpression' && value.operator === '-' && value.argument.type === 'NumericLiteral')
      return -value.argument.value;
    return undefined;
  }

  /** The function a callee names: a never-reassigned local function, or a global function declaration. */
  functionOf(callee: Expression): FunctionDeclaration | undefined {
    const value = this.unalias(callee);
    if (value.type === 'FunctionDeclaration') return value;
    const global = this.globalName(callee);
    return global === undefined ? undefined : this.scopes.globalFunctions.get(global);
  }

  redisCall(expression: Expression): RedisCall | undefined {
    if (!isCall(expression)) return undefined;
    const callee = this.unalias(expression.base);
    if (!this.isGlobalMember(callee, 'redis', 'call') && !this.isGlobalMember(callee, 'redis', 'pcall'))
      return undefined;
    const [name, ...args] = callArguments(expression);
    const command = name === undefined ? undefined : this.literalString(name)?.toUpperCase();
    return { node: expression, command, args };
  }

  classify(expression: Expression): Value {
    switch (expression.type) {
      case 'Identifier': {
        const binding = this.bindingOf(expression);
        if (binding) return this.classifyBinding(binding);
        if (this.isLibrary) return OTHER;
        if (expression.name === 'KEYS') return { kind: 'keysTable' };
        if (expression.name === 'ARGV') return { kind: 'argvTable' };
        return OTHER;
      }
      case 'IndexExpression': {
        const table = this.classify(expression.base);
        if (table.kind === 'keysTable') return { kind: 'key' };
        if (table.kind === 'argvTable') return { kind: 'argv', index: this.literalNumber(expression.index) };
        return OTHER;
      }
      case 'StringLiteral':
      case 'NumericLiteral':
        return { kind: 'literal' };
      case 'BinaryExpression':
        return expression.operator === '..' ? { kind: 'concatenation' } : OTHER;
      default:
        return OTHER;
    }
  }

  private classifyBinding(binding: Binding): Value {
    const known = this.bindingValues.get(binding);
    if (known) return known;
    this.bindingValues.set(binding, OTHER); // a cycle proves nothing
    const value = binding.assignments.length > 0 ? OTHER : this.classifyUnassigned(binding);
    this.bindingValues.set(binding, value);
    return value;
  }

  private classifyUnassigned(binding: Binding): Value {
    const owner = binding.owner;
    switch (binding.kind) {
      case 'local':
        return binding.init ? this.classify(binding.init) : OTHER;
      case 'parameter':
        if (owner?.type !== 'FunctionDeclaration') return OTHER;
        if (this.callbacks.has(owner)) {
          if (binding.position === 0) return { kind: 'keysTable' };
          if (binding.position === 1) return { kind: 'argvTable' };
          return OTHER;
        }
        return this.classifyHelperParameter(owner, binding.position);
      case 'forGeneric': {
        // `for _, k in ipairs(KEYS)`: the second variable walks the table's values.
        const iterator = owner?.type === 'ForGenericStatement' ? owner.iterators[0] : undefined;
        if (binding.position !== 1 || !iterator || !isCall(iterator)) return OTHER;
        const walker = this.globalName(iterator.base);
        const table = callArguments(iterator)[0];
        if ((walker !== 'ipairs' && walker !== 'pairs') || !table) return OTHER;
        const kind = this.classify(table).kind;
        if (kind === 'keysTable') return { kind: 'key' };
        if (kind === 'argvTable') return { kind: 'argv', index: undefined };
        return OTHER;
      }
      default:
        return OTHER;
    }
  }

  /** A helper's parameter has a kind when every call of the helper passes a value of that kind. */
  private classifyHelperParameter(fn: FunctionDeclaration, position: number): Value {
    const helper = this.scopes.bindingOfFunction(fn);
    if (!helper || helper.assignments.length > 0) return OTHER;
    // Passed around as a value, the helper may be called from anywhere.
    if (helper.callSites.length === 0 || helper.references.length !== helper.callSites.length) return OTHER;
    const values = helper.callSites.map((call) => {
      const argument = callArguments(call)[position];
      return argument ? this.classify(argument) : OTHER;
    });
    const [first, ...rest] = values;
    if (rest.some((value) => value.kind !== first.kind)) return OTHER;
    if (first.kind === 'argv' && rest.some((value) => value.kind === 'argv' && value.index !== first.index)) {
      return { kind: 'argv', index: undefined };
    }
    return first;
  }

  /** Whether the expression holds data read from Redis (a reply, or something built from one). */
  isStored(expression: Expression): boolean {
    if (this.redisCall(expression)) return true;
    switch (expression.type) {
      case 'Identifier': {
        const binding = this.bindingOf(expression);
        return binding ? this.isStoredBinding(binding) : false;
      }
      case 'MemberExpression':
      case 'IndexExpression':
        return this.isStored(expression.base);
      case 'LogicalExpression':
        return this.isStored(expression.left) || this.isStored(expression.right);
      case 'CallExpression': {
        const name = this.globalName(expression.base);
        const [argument] = expression.arguments;
        return (name === 'tostring' || name === 'tonumber') && argument !== undefined && this.isStored(argument);
      }
      default:
        return false;
    }
  }

  private isStoredBinding(binding: Binding): boolean {
    const known = this.storedBindings.get(binding);
    if (known !== undefined) return known;
    this.storedBindings.set(binding, false);
    const sources = [binding.init, ...binding.assignments, ...binding.fieldWrites];
    if (binding.kind === 'forGeneric' && binding.owner?.type === 'ForGenericStatement') {
      const iterator = binding.owner.iterators[0];
      if (iterator && isCall(iterator)) sources.push(...callArguments(iterator));
    }
    const stored = sources.some((source) => source !== undefined && this.isStored(source));
    this.storedBindings.set(binding, stored);
    return stored;
  }
}
