import FanoutJSON

/// `post-field`: required fields are present with the right JSON type.
struct PostFieldRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "post-field", defaultSeverity: .error,
        summary: "Every post has its required fields, each of the right JSON type.",
        explanation: """
            Clients decode posts strictly (the seeds' `Post.init?(snapshot:)` returns nil when a field is \
            missing or of another type), so such a post silently disappears from every feed. There is no \
            mechanical fix: the right value is unknown.
            """,
        isMechanical: false
    )

    func missingRequirement(in schema: Schema) -> String? { Requirement.posts(schema) }

    func findings(in context: CheckContext) -> [Finding] {
        context.dataset.fieldProblems.map { problem in
            finding(
                problem.actual == "missing"
                    ? "\(problem.path) is missing (expected a \(problem.expected))"
                    : "\(problem.path) is a \(problem.actual), expected a \(problem.expected)",
                paths: [problem.path], expected: problem.expected, actual: problem.actual
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        // Every row's problems, as `Dataset.fieldProblems` holds those of every post read.
        q.with()
            + q.finding(
                paths: ["e.fp.path"], expected: q.json("e.fp.expected"), actual: q.json("e.fp.actual"), fix: q.fix([]),
                message: [
                    "CASE WHEN e.fp.actual = 'missing' THEN e.fp.path || ' is missing (expected a ' || e.fp.expected || ')' "
                        + "ELSE e.fp.path || ' is a ' || e.fp.actual || ', expected a ' || e.fp.expected END"
                ]
            ) + "\nFROM (SELECT \(q.dialect.explode("p.field_problems")) AS fp FROM \(q.table("posts")) p) e"
    }
}
