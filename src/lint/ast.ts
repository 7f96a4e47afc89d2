import type { Expression, Node } from 'luaparse';

/** The direct child nodes of a node, in source order. */
export function childNodes(node: Node): Node[] {
  switch (node.type) {
    case 'Chunk':
    case 'DoStatement':
    case 'ElseClause':
      return node.body;
    case 'IfStatement':
      return node.clauses;
    case 'IfClause':
    case 'ElseifClause':
    case 'WhileStatement':
      return [node.condition, ...node.body];
    case 'RepeatStatement':
      return [...node.body, node.condition];
    case 'LocalStatement':
    case 'AssignmentStatement':
      return [...node.variables, ...node.init];
    case 'CallStatement':
      return [node.expression];
    case 'ReturnStatement':
      return node.arguments;
    case 'FunctionDeclaration':
      return [...(node.identifier ? [node.identifier] : []), ...node.parameters, ...node.body];
    case 'ForNumericStatement':
      return [node.variable, node.start, node.end, ...(node.step ? [node.step] : []), ...node.body];
    case 'ForGenericStatement':
      return [...node.variables, ...node.iterators, ...node.body];
    case 'TableConstructorExpression':
      return node.fields;
    case 'TableKey':
      return [node.key, node.value];
    case 'TableKeyString':
    case 'TableValue':
      return [node.value];
    case 'BinaryExpression':
    case 'LogicalExpression':
      return [node.left, node.right];
    case 'UnaryExpression':
      return [node.argument];
    case 'MemberExpression':
      return [node.base];
    case 'IndexExpression':
      return [node.base, node.index];
    case 'CallExpression':
      return [node.base, ...node.arguments];
    case 'TableCallExpression':
      return [node.base, node.arguments];
    case 'StringCallExpression':
      return [node.base, node.argument];
    default:
      return [];
  }
}

/** Visits every node under `root` (root included), depth first, in source order. */
export function walk(root: Node, visit: (node: Node) => void): void {
  visit(root);
  for (const child of childNodes(root)) walk(child, visit);
}

export type CallNode = Extract<Expression, { type: 'CallExpression' | 'StringCallExpression' | 'TableCallExpression' }>;

export function isCall(node: Node): node is CallNode {
  return node.type === 'CallExpression' || node.type === 'StringCallExpression' || node.type === 'TableCallExpression';
}

/** The argument list of any call form: `f(a, b)`, `f'str'`, `f{...}`. */
export function callArguments(call: CallNode): Expression[] {
  if (call.type === 'CallExpression') return call.arguments;
  if (call.type === 'StringCallExpression') return [call.argument];
  return [call.arguments];
}
