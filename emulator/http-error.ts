/** An error the emulator answers with the contract's error body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly metadata: Record<string, unknown> | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, metadata: Record<string, unknown> | null = null) =>
  new HttpError(400, message, metadata);
export const notFound = (message: string) => new HttpError(404, message);
