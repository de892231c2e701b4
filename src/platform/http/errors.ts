/** Every error code the API can answer with, and its HTTP status. */
export const ERROR_STATUS = {
	AUTHENTICATION_REQUIRED: 401,
	INVALID_API_KEY: 401,
	API_KEY_EXPIRED: 401,
	INSUFFICIENT_PERMISSIONS: 403,
	VALIDATION_ERROR: 400,
	NOT_FOUND: 404,
	INTERVIEW_NOT_FOUND: 404,
	ACCOUNT_NOT_FOUND: 404,
	API_KEY_NOT_FOUND: 404,
	EVENT_NOT_FOUND: 404,
	WEBHOOK_NOT_FOUND: 404,
	DELIVERY_NOT_FOUND: 404,
	METHOD_NOT_ALLOWED: 405,
	INVALID_OPERATION: 409,
	INTERVIEW_IN_PROGRESS: 409,
	INTERVIEW_ALREADY_CANCELLED: 409,
	IDEMPOTENCY_KEY_IN_USE: 409,
	INTERVIEW_NOT_OPEN: 403,
	INVALID_TOKEN: 401,
	UPGRADE_REQUIRED: 426,
	IDEMPOTENCY_KEY_REUSED: 422,
	INSUFFICIENT_CREDITS: 402,
	PAYLOAD_TOO_LARGE: 413,
	RATE_LIMIT_EXCEEDED: 429,
	QUOTA_EXCEEDED: 429,
	INTERNAL_ERROR: 500,
	SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorDetails = Record<string, unknown>;

/** The one error type routes throw; `onError` renders it in the contract's envelope. */
export class AppError extends Error {
	readonly code: ErrorCode;
	readonly status: (typeof ERROR_STATUS)[ErrorCode];
	readonly details: ErrorDetails | undefined;
	readonly headers: Record<string, string> | undefined;

	constructor(
		code: ErrorCode,
		message: string,
		details?: ErrorDetails,
		options?: { cause?: unknown; headers?: Record<string, string> },
	) {
		super(message, { cause: options?.cause });
		this.name = "AppError";
		this.code = code;
		this.status = ERROR_STATUS[code];
		this.details = details;
		this.headers = options?.headers;
	}
}

/**
 * A failure after which we cannot tell whether the request's change was made (the database
 * committed, or not, and could not say which). Its answer is kept for the Idempotency-Key like a
 * success's, so a retry with the key cannot make the change a second time.
 */
export class OutcomeUnknownError extends AppError {
	constructor(message: string, details: ErrorDetails) {
		super("INTERNAL_ERROR", message, { ...details, outcome: "unknown" });
		this.name = "OutcomeUnknownError";
	}
}

/** Whether an error's details say its request may have made its change (`OutcomeUnknownError`). */
export function outcomeUnknown(details: ErrorDetails | undefined): boolean {
	return details?.outcome === "unknown";
}

export function validationError(fields: Record<string, string>, message?: string): AppError {
	const names = Object.keys(fields);
	return new AppError(
		"VALIDATION_ERROR",
		message ?? `Invalid request: ${names.map((n) => `${n}: ${fields[n]}`).join("; ")}`,
		fields,
	);
}

export function assertNever(value: never): never {
	throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
