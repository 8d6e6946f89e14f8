// Models for activity.json (Benchmarks/Data/generate.py): a public API's
// event feed, written the way a client writes its own models and unlike the
// other corpus models: `let` properties with the synthesized `init(from:)`,
// enumerations with raw values, `Date` and `URL` properties, optionals that
// are absent in some records and null in others, and no coding keys of their
// own (the JSON's snake_case keys come from the decoders' snake-case key
// strategy, its dates from their ISO 8601 strategy: ``ActivityEvent/wire``).
import Cartograph
import Foundation

/// One event of activity.json (the file is an array of them).
public struct ActivityEvent: Codable, Equatable, Sendable {
    /// What happened; decides which members `payload` has.
    public enum Kind: String, Codable, Sendable {
        case push = "PushEvent", watch = "WatchEvent", issues = "IssuesEvent"
        case fork = "ForkEvent", create = "CreateEvent"
    }

    public let id: String
    public let type: Kind
    public let actor: ActivityAccount
    public let repo: ActivityRepository
    public let payload: ActivityPayload
    public let `public`: Bool
    public let createdAt: Date
    /// Absent from most events.
    public let org: ActivityAccount?
}

public struct ActivityAccount: Codable, Equatable, Sendable {
    public let id: Int
    public let login: String
    /// Absent from an issue's user and an organisation.
    public let displayLogin: String?
    public let gravatarId: String
    public let url: URL
    public let avatarUrl: URL
}

public struct ActivityRepository: Codable, Equatable, Sendable {
    public let id: Int
    public let name: String
    public let url: URL
}

/// Every kind's members in one type, each optional (absent where the kind has none).
public struct ActivityPayload: Codable, Equatable, Sendable {
    public enum RefType: String, Codable, Sendable { case branch, tag }

    public let action: String?
    public let pushId: Int64?
    public let size: Int?
    public let distinctSize: Int?
    public let ref: String?
    public let head: String?
    public let before: String?
    public let commits: [ActivityCommit]?
    public let issue: ActivityIssue?
    public let forkee: ActivityForkee?
    public let refType: RefType?
    public let masterBranch: String?
    /// Null in about half the create events.
    public let description: String?
    public let pusherType: String?
}

public struct ActivityCommit: Codable, Equatable, Sendable {
    public struct Author: Codable, Equatable, Sendable {
        public let email: String
        public let name: String
    }

    public let sha: String
    public let author: Author
    public let message: String
    public let distinct: Bool
    public let url: URL
}

public struct ActivityIssue: Codable, Equatable, Sendable {
    public enum State: String, Codable, Sendable { case open, closed }

    public struct Label: Codable, Equatable, Sendable {
        public let id: Int
        public let name: String
        public let color: String
        public let `default`: Bool
    }

    public let url: URL
    public let id: Int
    public let number: Int
    public let title: String
    public let user: ActivityAccount
    public let labels: [Label]
    public let state: State
    public let locked: Bool
    public let comments: Int
    public let createdAt: Date
    public let updatedAt: Date
    /// Null while the issue is open.
    public let closedAt: Date?
    /// Null in about a fifth of the issues.
    public let body: String?
}

public struct ActivityForkee: Codable, Equatable, Sendable {
    public let id: Int
    public let name: String
    public let fullName: String
    public let `private`: Bool
    public let htmlUrl: URL
    public let description: String?
    public let fork: Bool
    public let createdAt: Date
    public let stargazersCount: Int
    public let language: String?
}

extension ActivityEvent {
    /// How activity.json spells keys and dates, for both decoders: snake_case
    /// keys converted to the properties' camelCase, ISO 8601 dates.
    public static let wire = CorpusWire(snakeCaseKeys: true, iso8601Dates: true)
}
