export const wat: string;
export function compile(): Promise<Buffer>;
export function source(bytes: Buffer): string;
