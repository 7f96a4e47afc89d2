import type {
  Expression,
  FunctionDeclaration,
  ForGenericStatement,
  ForNumericStatement,
  Identifier,
  Node,
  Statement,
} from 'luaparse';
import { type CallNode, callArguments } from './ast.ts';

export type BindingKind = 'local' | 'localFunction' | 'parameter' | 'forNumeric' | 'forGeneric';

/** A local name: where it is declared, what it starts as, and every later write and use. */
export interface Binding {
  name: string;
  kind: BindingKind;
  declaration: Identifier;
  /** The expression whose (first) value the name starts with; absent when none is matched to it. */
  init?: Expression;
  /** The function, for-statement or function declaring a parameter or loop variable. */
  owner?: FunctionDeclaration | ForNumericStatement | ForGenericStatement;
  /** Position among the parameters or generic-for variables. */
  position: number;
  /** Right-hand sides of later assignments to the name (undefined: a value not matched to it). */
  assignments: Array<Expression | undefined>;
  /** Right-hand sides of `name[k] = v` and `name.f = v`. */
  fieldWrites: Array<Expression | undefined>;
  references: Identifier[];
  /** Calls whose callee is this name. */
  callSites: CallNode[];
}

/** A write that creates or replaces a global variable. */
export interface GlobalWrite {
  node: Identifier;
  kind: 'assignment' | 'function';
}

export interface ScopeInfo {
  /** The binding an identifier refers to, or undefined for a global. */
  bindingOf(identifier: Identifier): Binding | undefined;
  /** The local binding a function literal was assigned to at declaration, if any. */
  bindingOfFunction(fn: FunctionDeclaration): Binding | undefined;
  globalWrites: GlobalWrite[];
  /** Global function declarations by name (`function f() end`). */
  globalFunctions: Map<string, FunctionDeclaration>;
}

/** Resolves every identifier of a chunk to its Lua 5.1 lexical binding. */
export function resolveScopes(body: Statement[]): ScopeInfo {
  return new ScopeResolver().chunk(body);
}

/** One walk over a chunk, keeping the scopes open at each point (innermost last). */
class ScopeResolver {
  private readonly resolved = new Map<Identifier, Binding>();
  private readonly functionBindings = new Map<FunctionDeclaration, Binding>();
  private readonly globalWrites: GlobalWrite[] = [];
  private readonly globalFunctions = new Map<string, FunctionDeclaration>();
  private readonly scopes: Array<Map<string, Binding>> = [];

  chunk(body: Statement[]): ScopeInfo {
    this.inScope(() => body.forEach((s) => this.statement(s)));
    return {
      bindingOf: (identifier) => this.resolved.get(identifier),
      bindingOfFunction: (fn) => this.functionBindings.get(fn),
      globalWrites: this.globalWrites,
      globalFunctions: this.globalFunctions,
    };
  }

  private lookup(name: string): Binding | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const found = this.scopes[i].get(name);
      if (found) return found;
    }
    return undefined;
  }

  private declare(identifier: Identifier, kind: BindingKind, extra: Partial<Binding> = {}): Binding {
    const binding: Binding = {
      name: identifier.name,
      kind,
      declaration: identifier,
      position: 0,
      assignments: [],
      fieldWrites: [],
      references: [],
      callSites: [],
      ...extra,
    };
    this.scopes[this.scopes.length - 1].set(identifier.name, binding);
    if (binding.init?.type === 'FunctionDeclaration') this.functionBindings.set(binding.init, binding);
    return binding;
  }

  private reference(identifier: Identifier): Binding | undefined {
    const binding = this.lookup(identifier.name);
    if (binding) {
      this.resolved.set(identifier, binding);
      binding.references.push(identifier);
    }
    return binding;
  }

  private inScope(fn: () => void): void {
    this.scopes.push(new Map());
    fn();
    this.scopes.pop();
  }

  private block(statements: Statement[]): void {
    this.inScope(() => statements.forEach((s) => this.statement(s)));
  }

  private assignTarget(target: Node, value: Expression | undefined): void {
    if (target.type === 'Identifier') {
      const binding = this.reference(target);
      if (binding) binding.assignments.push(value);
      else this.globalWrites.push({ node: target, kind: 'assignment' });
      return;
    }
    if (target.type === 'IndexExpression' || target.type === 'MemberExpression') {
      this.expression(target);
      if (target.base.type === 'Identifier') this.resolved.get(target.base)?.fieldWrites.push(value);
    }
  }

  private functionBody(fn: FunctionDeclaration, hasSelf: boolean): void {
    this.inScope(() => {
      if (hasSelf)
        this.declare({ type: 'Identifier', name: 'self', loc: fn.loc }, 'parameter', { owner: fn, position: -1 });
      fn.parameters.forEach((parameter, position) => {
        if (parameter.type === 'Identifier') this.declare(parameter, 'parameter', { owner: fn, position });
      });
      fn.body.forEach((s) => this.statement(s));
    });
  }

  private expression(node: Expression): void {
    const expression = (e: Expression) => this.expression(e);
    switch (node.type) {
      case 'Identifier':
        this.reference(node);
        return;
      case 'FunctionDeclaration':
        this.functionBody(node, false);
        return;
      case 'MemberExpression':
        expression(node.base);
        return;
      case 'IndexExpression':
        expression(node.base);
        expression(node.index);
        return;
      case 'CallExpression':
      case 'StringCallExpression':
      case 'TableCallExpression': {
        expression(node.base);
        callArguments(node).forEach(expression);
        if (node.base.type === 'Identifier') this.resolved.get(node.base)?.callSites.push(node);
        return;
      }
      case 'BinaryExpression':
      case 'LogicalExpression':
        expression(node.left);
        expression(node.right);
        return;
      case 'UnaryExpression':
        expression(node.argument);
        return;
      case 'TableConstructorExpression':
        for (const field of node.fields) {
          if (field.type === 'TableKey') expression(field.key);
          expression(field.value);
        }
        return;
      default:
        return;
    }
  }

  private statement(node: Statement): void {
    const expression = (e: Expression) => this.expression(e);
    const statement = (s: Statement) => this.statement(s);
    switch (node.type) {
      case 'LocalStatement':
        // `local x = x` reads the outer x: values are resolved before the names exist.
        node.init.forEach(expression);
        node.variables.forEach((variable, i) => this.declare(variable, 'local', { init: node.init[i] }));
        return;
      case 'AssignmentStatement':
        node.init.forEach(expression);
        node.variables.forEach((target, i) => this.assignTarget(target, node.init[i]));
        return;
      case 'CallStatement':
        expression(node.expression);
        return;
      case 'FunctionDeclaration':
        this.functionStatement(node);
        return;
      case 'ReturnStatement':
        node.arguments.forEach(expression);
        return;
      case 'IfStatement':
        for (const clause of node.clauses) {
          if (clause.type !== 'ElseClause') expression(clause.condition);
          this.block(clause.body);
        }
        return;
      case 'WhileStatement':
        expression(node.condition);
        this.block(node.body);
        return;
      case 'RepeatStatement':
        // The `until` condition sees the locals of the loop body.
        this.inScope(() => {
          node.body.forEach(statement);
          expression(node.condition);
        });
        return;
      case 'DoStatement':
        this.block(node.body);
        return;
      case 'ForNumericStatement':
        expression(node.start);
        expression(node.end);
        if (node.step) expression(node.step);
        this.inScope(() => {
          this.declare(node.variable, 'forNumeric', { owner: node });
          node.body.forEach(statement);
        });
        return;
      case 'ForGenericStatement':
        node.iterators.forEach(expression);
        this.inScope(() => {
          node.variables.forEach((variable, position) =>
            this.declare(variable, 'forGeneric', { owner: node, position }),
          );
          node.body.forEach(statement);
        });
        return;
      default:
        return;
    }
  }

  private functionStatement(node: FunctionDeclaration): void {
    const name = node.identifier;
    if (node.isLocal && name?.type === 'Identifier') {
      this.declare(name, 'localFunction', { init: node }); // in scope inside its own body, for recursion
      this.functionBody(node, false);
      return;
    }
    if (name?.type === 'Identifier') {
      const binding = this.reference(name);
      if (binding) binding.assignments.push(node);
      else {
        this.globalWrites.push({ node: name, kind: 'function' });
        this.globalFunctions.set(name.name, node);
      }
    } else if (name?.type === 'MemberExpression') {
      this.expression(name.base);
    }
    this.functionBody(node, name?.type === 'MemberExpression' && name.indexer === ':');
  }
}
