export const LIMIT: number;
export interface Allowance {
  readonly file: string;
  readonly name: string;
  readonly reason: string;
}
export const ALLOWED: readonly Allowance[];
export interface DocComment {
  readonly file: string;
  readonly name: string;
  readonly line: number;
  readonly length: number;
}
export function commentText(comment: string): string;
export function docCommentsIn(file: string, text: string): DocComment[];
export function longDocCommentsIn(file: string, text: string, limit?: number): DocComment[];
export function sourceFiles(): string[];
export function allowance(found: DocComment): Allowance | undefined;
export function scanProject(): (DocComment & { readonly allowed: Allowance | undefined })[];
export function allDocComments(): DocComment[];
