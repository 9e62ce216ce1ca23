// The part of a tree-sitter syntax tree the shell analysis reads. Structural, so the pure folders
// name no parser package and any tree-sitter binding with these members can be passed in.

/** One node of a parsed command line (tree-sitter's `Node`, read-only members used here). */
export interface SyntaxNode {
  readonly type: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly isNamed: boolean;
  readonly hasError: boolean;
  readonly childCount: number;
  readonly children: readonly (SyntaxNode | null)[];
  readonly namedChildren: readonly (SyntaxNode | null)[];
  child(index: number): SyntaxNode | null;
  namedChild(index: number): SyntaxNode | null;
  childForFieldName(fieldName: string): SyntaxNode | null;
}

/** A parse result; `delete()` frees the parser's memory for it. */
export interface SyntaxTree {
  readonly rootNode: SyntaxNode;
  delete(): void;
}

/** A parser loaded with the bash grammar (see src/grammar/bash-grammar.ts). */
export interface BashParser {
  parse(text: string): SyntaxTree | null;
}
