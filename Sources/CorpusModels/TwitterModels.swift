// Models for twitter.json (the Twitter search API response in
// Benchmarks/Data), every field mapped. The same types are decoded three
// ways in the benchmark and the equivalence tests: Codable (these
// declarations), Cartograph Mappings (TwitterMappings.swift) and
// hand-written factories (TwitterFactories.swift).
import Cartograph

@Mappable
public struct TwitterResponse: Codable, Equatable, Sendable {
    public var statuses: [Status] = []
    public var searchMetadata = SearchMetadata()

    public init() {}

    enum CodingKeys: String, CodingKey {
        case statuses
        case searchMetadata = "search_metadata"
    }
}

@Mappable
public struct SearchMetadata: Codable, Equatable, Sendable {
    public var completedIn = 0.0
    public var maxID: Int64 = 0
    @Mapped("max_id_str") public var maxIDString = ""
    public var nextResults = ""
    public var query = ""
    public var refreshURL = ""
    public var count = 0
    public var sinceID: Int64 = 0
    @Mapped("since_id_str") public var sinceIDString = ""

    public init() {}

    enum CodingKeys: String, CodingKey {
        case completedIn = "completed_in"
        case maxID = "max_id"
        case maxIDString = "max_id_str"
        case nextResults = "next_results"
        case query
        case refreshURL = "refresh_url"
        case count
        case sinceID = "since_id"
        case sinceIDString = "since_id_str"
    }
}

/// The fields a status and the status it retweets share.
@Mappable
public struct Status: Codable, Equatable, Sendable {
    public var metadata = StatusMetadata()
    public var createdAt = ""
    public var id: Int64 = 0
    @Mapped("id_str") public var idString = ""
    public var text = ""
    public var source = ""
    public var truncated = false
    public var inReplyToStatusID: Int64?
    @Mapped("in_reply_to_status_id_str") public var inReplyToStatusIDString: String?
    public var inReplyToUserID: Int64?
    @Mapped("in_reply_to_user_id_str") public var inReplyToUserIDString: String?
    public var inReplyToScreenName: String?
    public var user = TwitterUser()
    public var geo: JSONValue?
    public var coordinates: JSONValue?
    public var place: JSONValue?
    public var contributors: JSONValue?
    public var retweetCount = 0
    public var favoriteCount = 0
    public var entities = StatusEntities()
    public var favorited = false
    public var retweeted = false
    public var possiblySensitive: Bool?
    public var lang = ""
    public var retweetedStatus: RetweetedStatus?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case metadata
        case createdAt = "created_at"
        case id
        case idString = "id_str"
        case text, source, truncated
        case inReplyToStatusID = "in_reply_to_status_id"
        case inReplyToStatusIDString = "in_reply_to_status_id_str"
        case inReplyToUserID = "in_reply_to_user_id"
        case inReplyToUserIDString = "in_reply_to_user_id_str"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case user, geo, coordinates, place, contributors
        case retweetCount = "retweet_count"
        case favoriteCount = "favorite_count"
        case entities, favorited, retweeted
        case possiblySensitive = "possibly_sensitive"
        case lang
        case retweetedStatus = "retweeted_status"
    }
}

/// A retweeted status: a status without a retweet of its own.
@Mappable
public struct RetweetedStatus: Codable, Equatable, Sendable {
    public var metadata = StatusMetadata()
    public var createdAt = ""
    public var id: Int64 = 0
    @Mapped("id_str") public var idString = ""
    public var text = ""
    public var source = ""
    public var truncated = false
    public var inReplyToStatusID: Int64?
    @Mapped("in_reply_to_status_id_str") public var inReplyToStatusIDString: String?
    public var inReplyToUserID: Int64?
    @Mapped("in_reply_to_user_id_str") public var inReplyToUserIDString: String?
    public var inReplyToScreenName: String?
    public var user = TwitterUser()
    public var geo: JSONValue?
    public var coordinates: JSONValue?
    public var place: JSONValue?
    public var contributors: JSONValue?
    public var retweetCount = 0
    public var favoriteCount = 0
    public var entities = StatusEntities()
    public var favorited = false
    public var retweeted = false
    public var possiblySensitive: Bool?
    public var lang = ""

    public init() {}

    enum CodingKeys: String, CodingKey {
        case metadata
        case createdAt = "created_at"
        case id
        case idString = "id_str"
        case text, source, truncated
        case inReplyToStatusID = "in_reply_to_status_id"
        case inReplyToStatusIDString = "in_reply_to_status_id_str"
        case inReplyToUserID = "in_reply_to_user_id"
        case inReplyToUserIDString = "in_reply_to_user_id_str"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case user, geo, coordinates, place, contributors
        case retweetCount = "retweet_count"
        case favoriteCount = "favorite_count"
        case entities, favorited, retweeted
        case possiblySensitive = "possibly_sensitive"
        case lang
    }
}

@Mappable
public struct StatusMetadata: Codable, Equatable, Sendable {
    public var resultType = ""
    public var isoLanguageCode = ""

    public init() {}

    enum CodingKeys: String, CodingKey {
        case resultType = "result_type"
        case isoLanguageCode = "iso_language_code"
    }
}

@Mappable
public struct TwitterUser: Codable, Equatable, Sendable {
    public var id: Int64 = 0
    @Mapped("id_str") public var idString = ""
    public var name = ""
    public var screenName = ""
    public var location = ""
    public var description = ""
    public var url: String?
    public var entities = UserEntities()
    public var protected = false
    public var followersCount = 0
    public var friendsCount = 0
    public var listedCount = 0
    public var createdAt = ""
    public var favouritesCount = 0
    public var utcOffset: Int?
    public var timeZone: String?
    public var geoEnabled = false
    public var verified = false
    public var statusesCount = 0
    public var lang = ""
    public var contributorsEnabled = false
    public var isTranslator = false
    public var isTranslationEnabled = false
    public var profileBackgroundColor = ""
    public var profileBackgroundImageURL = ""
    @Mapped("profile_background_image_url_https") public var profileBackgroundImageURLHTTPS = ""
    public var profileBackgroundTile = false
    public var profileImageURL = ""
    @Mapped("profile_image_url_https") public var profileImageURLHTTPS = ""
    public var profileBannerURL: String?
    public var profileLinkColor = ""
    public var profileSidebarBorderColor = ""
    public var profileSidebarFillColor = ""
    public var profileTextColor = ""
    public var profileUseBackgroundImage = false
    public var defaultProfile = false
    public var defaultProfileImage = false
    public var following = false
    public var followRequestSent = false
    public var notifications = false

    public init() {}

    enum CodingKeys: String, CodingKey {
        case id
        case idString = "id_str"
        case name
        case screenName = "screen_name"
        case location, description, url, entities, protected
        case followersCount = "followers_count"
        case friendsCount = "friends_count"
        case listedCount = "listed_count"
        case createdAt = "created_at"
        case favouritesCount = "favourites_count"
        case utcOffset = "utc_offset"
        case timeZone = "time_zone"
        case geoEnabled = "geo_enabled"
        case verified
        case statusesCount = "statuses_count"
        case lang
        case contributorsEnabled = "contributors_enabled"
        case isTranslator = "is_translator"
        case isTranslationEnabled = "is_translation_enabled"
        case profileBackgroundColor = "profile_background_color"
        case profileBackgroundImageURL = "profile_background_image_url"
        case profileBackgroundImageURLHTTPS = "profile_background_image_url_https"
        case profileBackgroundTile = "profile_background_tile"
        case profileImageURL = "profile_image_url"
        case profileImageURLHTTPS = "profile_image_url_https"
        case profileBannerURL = "profile_banner_url"
        case profileLinkColor = "profile_link_color"
        case profileSidebarBorderColor = "profile_sidebar_border_color"
        case profileSidebarFillColor = "profile_sidebar_fill_color"
        case profileTextColor = "profile_text_color"
        case profileUseBackgroundImage = "profile_use_background_image"
        case defaultProfile = "default_profile"
        case defaultProfileImage = "default_profile_image"
        case following
        case followRequestSent = "follow_request_sent"
        case notifications
    }
}

@Mappable
public struct UserEntities: Codable, Equatable, Sendable {
    public var description = URLList()
    public var url: URLList?

    public init() {}
}

@Mappable
public struct URLList: Codable, Equatable, Sendable {
    public var urls: [TweetURL] = []

    public init() {}
}

@Mappable
public struct StatusEntities: Codable, Equatable, Sendable {
    public var hashtags: [Hashtag] = []
    public var symbols: [JSONValue] = []
    public var urls: [TweetURL] = []
    public var userMentions: [UserMention] = []
    public var media: [Media]?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case hashtags, symbols, urls
        case userMentions = "user_mentions"
        case media
    }
}

@Mappable
public struct Hashtag: Codable, Equatable, Sendable {
    public var text = ""
    public var indices: [Int] = []

    public init() {}
}

@Mappable
public struct TweetURL: Codable, Equatable, Sendable {
    public var url = ""
    public var expandedURL = ""
    public var displayURL = ""
    public var indices: [Int] = []

    public init() {}

    enum CodingKeys: String, CodingKey {
        case url
        case expandedURL = "expanded_url"
        case displayURL = "display_url"
        case indices
    }
}

@Mappable
public struct UserMention: Codable, Equatable, Sendable {
    public var screenName = ""
    public var name = ""
    public var id: Int64 = 0
    @Mapped("id_str") public var idString = ""
    public var indices: [Int] = []

    public init() {}

    enum CodingKeys: String, CodingKey {
        case screenName = "screen_name"
        case name, id
        case idString = "id_str"
        case indices
    }
}

@Mappable
public struct Media: Codable, Equatable, Sendable {
    public var id: Int64 = 0
    @Mapped("id_str") public var idString = ""
    public var indices: [Int] = []
    public var mediaURL = ""
    @Mapped("media_url_https") public var mediaURLHTTPS = ""
    public var url = ""
    public var displayURL = ""
    public var expandedURL = ""
    public var type = ""
    public var sizes = MediaSizes()
    public var sourceStatusID: Int64?
    @Mapped("source_status_id_str") public var sourceStatusIDString: String?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case id
        case idString = "id_str"
        case indices
        case mediaURL = "media_url"
        case mediaURLHTTPS = "media_url_https"
        case url
        case displayURL = "display_url"
        case expandedURL = "expanded_url"
        case type, sizes
        case sourceStatusID = "source_status_id"
        case sourceStatusIDString = "source_status_id_str"
    }
}

@Mappable
public struct MediaSizes: Codable, Equatable, Sendable {
    public var medium = MediaSize()
    public var small = MediaSize()
    public var thumb = MediaSize()
    public var large = MediaSize()

    public init() {}
}

@Mappable
public struct MediaSize: Codable, Equatable, Sendable {
    public var w = 0
    public var h = 0
    public var resize = ""

    public init() {}
}
