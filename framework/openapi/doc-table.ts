/** What the JSDoc of one handler method says, in a form that survives `JSON.stringify`. */
export interface MethodDocs {
  /** The first line of the comment: the operation's `summary`. */
  summary?: string;
  /** The rest of the comment: the operation's `description`. */
  description?: string;
  /** Whether the comment has a `@deprecated` tag. */
  deprecated?: boolean;
  /** Names given to `@Header(...)` as written, by their lower-case form (`{ 'x-api-key': 'X-Api-Key' }`). */
  headerNames?: Record<string, string>;
}

/** The doc comments of one class declared in a file. */
export interface ClassDocs {
  name: string;
  /** First and last line (1-based) of the class in the file the table lists it under. */
  start: number;
  end: number;
  /** The class's JSDoc: the description of its tag in the OpenAPI document. */
  description?: string;
  /** Each method's JSDoc, by method name. */
  methods: Record<string, MethodDocs>;
}

/**
 * The doc comments of an app's routers, precomputed: by the absolute path of each file whose classes declare
 * routes (the file a route's decorators ran in, as stack traces name it: the compiled `.js` file of a build),
 * the classes it declares. `trellis build` writes one into its manifest, since a built app has neither its
 * TypeScript sources nor the TypeScript parser to read them; give it to the app with the `docComments` option.
 *
 * @example
 * ```ts
 * const docComments: DocCommentTable = {
 *   '/srv/app/dist/routers/tasks.js': [
 *     { name: 'TaskRouter', start: 12, end: 40, description: 'Tasks of the team.', methods: { list: { summary: 'All tasks' } } },
 *   ],
 * };
 * const app = new BaseRouter({ title: 'Tasks API', docComments });
 * ```
 */
export type DocCommentTable = Readonly<Record<string, readonly ClassDocs[]>>;
