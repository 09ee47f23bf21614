/** A body that is not the JSON a channel takes: its message names where or what, never the text itself. */
export class BodyShapeError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'BodyShapeError';
	}
}
