// Generated code by construction (docs/reference/codegen.md): a leaf that imports nothing from the framework.
export { Code, Name, code, join, nil, prop, type Interpolated } from './code';
export { compile, printing, PRINT_CODE_VARIABLE } from './compile';
export { literalOf, type SafeValue } from './literal';
