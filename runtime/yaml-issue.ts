/** A problem in a YAML file, at a 1-based line. */
export interface YamlIssue {
  line: number;
  message: string;
  /** The variable a `${NAME}` reference names, when the issue is that it is not set. */
  unset?: string;
}
