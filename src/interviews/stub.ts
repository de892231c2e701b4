/** The interview's Durable Object, by interview id (typed from the generated `INTERVIEW` namespace). */
export function interviewStub(env: Env, id: string) {
	return env.INTERVIEW.get(env.INTERVIEW.idFromName(id));
}
