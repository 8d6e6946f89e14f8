/// What the samples' top level becomes: a model type, or, when its keys are
/// data (ids, dates, names of things: ``ValueShape/isMap``) and its values
/// are records, a dictionary of a model type.
///
/// A top-level object keyed by id (a directory export, a cache dump, a
/// realtime database's tree) was planned as a model with one property per
/// id: thousands of `_1001` properties, and a type that fails to decode the
/// next response, whose ids differ. Nested objects of that shape were
/// already `[String: Item]`; the top level now is too.
enum RootPlan {
    /// A model type named as asked.
    case model(ModelPlan)
    /// `typealias Name = [String: Item]`: `item` is the values' model, and
    /// `value` its type (optional when some values are null).
    case map(name: String, value: InferredType, item: ModelPlan)

    /// Plans the top level of the samples merged in `shape`.
    static func plan(name: String, shape: ValueShape, makesEnums: Bool) -> RootPlan {
        // Only records: a wide object of scalars (a config file, a table of
        // strings) stays a model, and values that are maps themselves do too.
        let values = shape.isMap ? shape.mapValues : nil
        guard let values, values.soleKind == .object, !values.members.isEmpty, !values.isMap else {
            return .model(ModelPlan(name: name, shape: shape, makesEnums: makesEnums))
        }
        let item = ModelPlan(name: name + "Item", shape: values, enclosing: [name], makesEnums: makesEnums)
        let type = InferredType.model(item)
        return .map(name: name, value: values.nulls > 0 ? .optional(type) : type, item: item)
    }

    /// The name the top level is written under.
    var name: String {
        switch self {
        case .model(let plan): return plan.name
        case .map(let name, _, _): return name
        }
    }

    /// The model type written at the top of the file: the top level's, or its items'.
    var model: ModelPlan {
        switch self {
        case .model(let plan): return plan
        case .map(_, _, let item): return item
        }
    }
}
