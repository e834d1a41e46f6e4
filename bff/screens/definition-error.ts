/** A screen definition (or a fragment it uses) that cannot be served; `file` and JSON `path` say where. */
export class ScreenDefinitionError extends Error {
  constructor(
    readonly file: string,
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${file}${path ? ` at ${path}` : ''}: ${detail}`);
    this.name = 'ScreenDefinitionError';
  }
}
