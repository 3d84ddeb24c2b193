import { parseAllowlist, type Allowlist } from './allowlist';

/**
 * The keys Engram may learn about a project (the repository the owner works in), apart from the owner's own:
 * "we use vitest here" fills test_framework of this project, never the owner's. Same YAML shape as the owner's list.
 */
export const defaultProjectAllowlistYaml = `# Engram learns facts about a project only for the keys below.
keys:
  build_command:   { cardinality: single, description: How this project is built, e.g. npm run build }
  test_command:    { cardinality: single, description: How its tests run, e.g. npm test }
  package_manager: { cardinality: single, description: Its package manager }
  test_framework:  { cardinality: single, description: Its test framework }
  languages:       { cardinality: multi,  description: Programming languages it is written in }
  frameworks:      { cardinality: multi,  description: Frameworks and libraries it uses }
  formatter:       { cardinality: single, description: The formatter its code goes through }
  style_rules:     { cardinality: multi,  description: Conventions of its code, e.g. indent with tabs }
  do_not_touch:    { cardinality: multi,  description: Files or folders never to edit, e.g. generated/ }
  decisions:       { cardinality: multi,  description: Decisions taken about it, in a line each }
`;

export const defaultProjectAllowlist: Allowlist = parseAllowlist(defaultProjectAllowlistYaml);
