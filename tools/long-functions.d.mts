export const LIMIT: number;
export interface Allowance {
  readonly file: string;
  readonly name: string;
  readonly kind: "table" | "hot" | "recursive" | "unsplit";
  readonly reason: string;
}
export const ALLOWED: readonly Allowance[];
export interface LongFunction {
  readonly file: string;
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}
export function longFunctionsIn(file: string, text: string, limit?: number): LongFunction[];
export function sourceFiles(): string[];
export function allowance(found: LongFunction): Allowance | undefined;
export function scanProject(limit?: number): (LongFunction & { readonly allowed: Allowance | undefined })[];
