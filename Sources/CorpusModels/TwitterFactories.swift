// Hand-written factories for the twitter.json models: every field, read in
// document order through ObjectView cursors, nested models through their
// factories directly.
import Cartograph

private enum K {
    static let statuses: ObjectView.Key = "statuses"
    static let searchMetadata: ObjectView.Key = "search_metadata"
    static let completedIn: ObjectView.Key = "completed_in"
    static let maxID: ObjectView.Key = "max_id"
    static let maxIDString: ObjectView.Key = "max_id_str"
    static let nextResults: ObjectView.Key = "next_results"
    static let query: ObjectView.Key = "query"
    static let refreshURL: ObjectView.Key = "refresh_url"
    static let count: ObjectView.Key = "count"
    static let sinceID: ObjectView.Key = "since_id"
    static let sinceIDString: ObjectView.Key = "since_id_str"
    static let metadata: ObjectView.Key = "metadata"
    static let createdAt: ObjectView.Key = "created_at"
    static let id: ObjectView.Key = "id"
    static let idString: ObjectView.Key = "id_str"
    static let text: ObjectView.Key = "text"
    static let source: ObjectView.Key = "source"
    static let truncated: ObjectView.Key = "truncated"
    static let inReplyToStatusID: ObjectView.Key = "in_reply_to_status_id"
    static let inReplyToStatusIDString: ObjectView.Key = "in_reply_to_status_id_str"
    static let inReplyToUserID: ObjectView.Key = "in_reply_to_user_id"
    static let inReplyToUserIDString: ObjectView.Key = "in_reply_to_user_id_str"
    static let inReplyToScreenName: ObjectView.Key = "in_reply_to_screen_name"
    static let user: ObjectView.Key = "user"
    static let geo: ObjectView.Key = "geo"
    static let coordinates: ObjectView.Key = "coordinates"
    static let place: ObjectView.Key = "place"
    static let contributors: ObjectView.Key = "contributors"
    static let retweetCount: ObjectView.Key = "retweet_count"
    static let favoriteCount: ObjectView.Key = "favorite_count"
    static let entities: ObjectView.Key = "entities"
    static let favorited: ObjectView.Key = "favorited"
    static let retweeted: ObjectView.Key = "retweeted"
    static let possiblySensitive: ObjectView.Key = "possibly_sensitive"
    static let lang: ObjectView.Key = "lang"
    static let retweetedStatus: ObjectView.Key = "retweeted_status"
    static let resultType: ObjectView.Key = "result_type"
    static let isoLanguageCode: ObjectView.Key = "iso_language_code"
    static let name: ObjectView.Key = "name"
    static let screenName: ObjectView.Key = "screen_name"
    static let location: ObjectView.Key = "location"
    static let description: ObjectView.Key = "description"
    static let url: ObjectView.Key = "url"
    static let protected: ObjectView.Key = "protected"
    static let followersCount: ObjectView.Key = "followers_count"
    static let friendsCount: ObjectView.Key = "friends_count"
    static let listedCount: ObjectView.Key = "listed_count"
    static let favouritesCount: ObjectView.Key = "favourites_count"
    static let utcOffset: ObjectView.Key = "utc_offset"
    static let timeZone: ObjectView.Key = "time_zone"
    static let geoEnabled: ObjectView.Key = "geo_enabled"
    static let verified: ObjectView.Key = "verified"
    static let statusesCount: ObjectView.Key = "statuses_count"
    static let contributorsEnabled: ObjectView.Key = "contributors_enabled"
    static let isTranslator: ObjectView.Key = "is_translator"
    static let isTranslationEnabled: ObjectView.Key = "is_translation_enabled"
    static let profileBackgroundColor: ObjectView.Key = "profile_background_color"
    static let profileBackgroundImageURL: ObjectView.Key = "profile_background_image_url"
    static let profileBackgroundImageURLHTTPS: ObjectView.Key = "profile_background_image_url_https"
    static let profileBackgroundTile: ObjectView.Key = "profile_background_tile"
    static let profileImageURL: ObjectView.Key = "profile_image_url"
    static let profileImageURLHTTPS: ObjectView.Key = "profile_image_url_https"
    static let profileBannerURL: ObjectView.Key = "profile_banner_url"
    static let profileLinkColor: ObjectView.Key = "profile_link_color"
    static let profileSidebarBorderColor: ObjectView.Key = "profile_sidebar_border_color"
    static let profileSidebarFillColor: ObjectView.Key = "profile_sidebar_fill_color"
    static let profileTextColor: ObjectView.Key = "profile_text_color"
    static let profileUseBackgroundImage: ObjectView.Key = "profile_use_background_image"
    static let defaultProfile: ObjectView.Key = "default_profile"
    static let defaultProfileImage: ObjectView.Key = "default_profile_image"
    static let following: ObjectView.Key = "following"
    static let followRequestSent: ObjectView.Key = "follow_request_sent"
    static let notifications: ObjectView.Key = "notifications"
    static let urls: ObjectView.Key = "urls"
    static let hashtags: ObjectView.Key = "hashtags"
    static let symbols: ObjectView.Key = "symbols"
    static let userMentions: ObjectView.Key = "user_mentions"
    static let media: ObjectView.Key = "media"
    static let indices: ObjectView.Key = "indices"
    static let expandedURL: ObjectView.Key = "expanded_url"
    static let displayURL: ObjectView.Key = "display_url"
    static let mediaURL: ObjectView.Key = "media_url"
    static let mediaURLHTTPS: ObjectView.Key = "media_url_https"
    static let type: ObjectView.Key = "type"
    static let sizes: ObjectView.Key = "sizes"
    static let sourceStatusID: ObjectView.Key = "source_status_id"
    static let sourceStatusIDString: ObjectView.Key = "source_status_id_str"
    static let medium: ObjectView.Key = "medium"
    static let small: ObjectView.Key = "small"
    static let thumb: ObjectView.Key = "thumb"
    static let large: ObjectView.Key = "large"
    static let w: ObjectView.Key = "w"
    static let h: ObjectView.Key = "h"
    static let resize: ObjectView.Key = "resize"
}

public struct TwitterResponseFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["statuses", "search_metadata"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> TwitterResponse {
        var read = FieldReader(object, context)
        var model = TwitterResponse()
        model.statuses = try read.models(K.statuses, StatusFactory()) ?? []
        model.searchMetadata = try read.model(K.searchMetadata, SearchMetadataFactory()) ?? SearchMetadata()
        return model
    }
}

public struct SearchMetadataFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["max_id", "query"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> SearchMetadata {
        var read = FieldReader(object, context)
        var model = SearchMetadata()
        model.completedIn = try read.double(K.completedIn)
        model.maxID = try read.int64(K.maxID)
        model.maxIDString = try read.string(K.maxIDString)
        model.nextResults = try read.string(K.nextResults)
        model.query = try read.string(K.query)
        model.refreshURL = try read.string(K.refreshURL)
        model.count = try read.int(K.count)
        model.sinceID = try read.int64(K.sinceID)
        model.sinceIDString = try read.string(K.sinceIDString)
        return model
    }
}

public struct StatusFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["id", "text", "user"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> Status {
        var read = FieldReader(object, context)
        var model = Status()
        model.metadata = try read.model(K.metadata, StatusMetadataFactory()) ?? StatusMetadata()
        model.createdAt = try read.string(K.createdAt)
        model.id = try read.int64(K.id)
        model.idString = try read.string(K.idString)
        model.text = try read.string(K.text)
        model.source = try read.string(K.source)
        model.truncated = try read.bool(K.truncated)
        model.inReplyToStatusID = try read.optionalInt64(K.inReplyToStatusID)
        model.inReplyToStatusIDString = try read.optionalString(K.inReplyToStatusIDString)
        model.inReplyToUserID = try read.optionalInt64(K.inReplyToUserID)
        model.inReplyToUserIDString = try read.optionalString(K.inReplyToUserIDString)
        model.inReplyToScreenName = try read.optionalString(K.inReplyToScreenName)
        model.user = try read.model(K.user, TwitterUserFactory()) ?? TwitterUser()
        model.geo = try read.value(K.geo)
        model.coordinates = try read.value(K.coordinates)
        model.place = try read.value(K.place)
        model.contributors = try read.value(K.contributors)
        model.retweetCount = try read.int(K.retweetCount)
        model.favoriteCount = try read.int(K.favoriteCount)
        model.entities = try read.model(K.entities, StatusEntitiesFactory()) ?? StatusEntities()
        model.favorited = try read.bool(K.favorited)
        model.retweeted = try read.bool(K.retweeted)
        model.possiblySensitive = try read.optionalBool(K.possiblySensitive)
        model.lang = try read.string(K.lang)
        model.retweetedStatus = try read.model(K.retweetedStatus, RetweetedStatusFactory())
        return model
    }
}

public struct RetweetedStatusFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["id", "text", "user"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> RetweetedStatus {
        var read = FieldReader(object, context)
        var model = RetweetedStatus()
        model.metadata = try read.model(K.metadata, StatusMetadataFactory()) ?? StatusMetadata()
        model.createdAt = try read.string(K.createdAt)
        model.id = try read.int64(K.id)
        model.idString = try read.string(K.idString)
        model.text = try read.string(K.text)
        model.source = try read.string(K.source)
        model.truncated = try read.bool(K.truncated)
        model.inReplyToStatusID = try read.optionalInt64(K.inReplyToStatusID)
        model.inReplyToStatusIDString = try read.optionalString(K.inReplyToStatusIDString)
        model.inReplyToUserID = try read.optionalInt64(K.inReplyToUserID)
        model.inReplyToUserIDString = try read.optionalString(K.inReplyToUserIDString)
        model.inReplyToScreenName = try read.optionalString(K.inReplyToScreenName)
        model.user = try read.model(K.user, TwitterUserFactory()) ?? TwitterUser()
        model.geo = try read.value(K.geo)
        model.coordinates = try read.value(K.coordinates)
        model.place = try read.value(K.place)
        model.contributors = try read.value(K.contributors)
        model.retweetCount = try read.int(K.retweetCount)
        model.favoriteCount = try read.int(K.favoriteCount)
        model.entities = try read.model(K.entities, StatusEntitiesFactory()) ?? StatusEntities()
        model.favorited = try read.bool(K.favorited)
        model.retweeted = try read.bool(K.retweeted)
        model.possiblySensitive = try read.optionalBool(K.possiblySensitive)
        model.lang = try read.string(K.lang)
        return model
    }
}

public struct StatusMetadataFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["result_type", "iso_language_code"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> StatusMetadata {
        var read = FieldReader(object, context)
        var model = StatusMetadata()
        model.resultType = try read.string(K.resultType)
        model.isoLanguageCode = try read.string(K.isoLanguageCode)
        return model
    }
}

public struct TwitterUserFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["id", "screen_name"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> TwitterUser {
        var read = FieldReader(object, context)
        var model = TwitterUser()
        model.id = try read.int64(K.id)
        model.idString = try read.string(K.idString)
        model.name = try read.string(K.name)
        model.screenName = try read.string(K.screenName)
        model.location = try read.string(K.location)
        model.description = try read.string(K.description)
        model.url = try read.optionalString(K.url)
        model.entities = try read.model(K.entities, UserEntitiesFactory()) ?? UserEntities()
        model.protected = try read.bool(K.protected)
        model.followersCount = try read.int(K.followersCount)
        model.friendsCount = try read.int(K.friendsCount)
        model.listedCount = try read.int(K.listedCount)
        model.createdAt = try read.string(K.createdAt)
        model.favouritesCount = try read.int(K.favouritesCount)
        model.utcOffset = try read.optionalInt(K.utcOffset)
        model.timeZone = try read.optionalString(K.timeZone)
        model.geoEnabled = try read.bool(K.geoEnabled)
        model.verified = try read.bool(K.verified)
        model.statusesCount = try read.int(K.statusesCount)
        model.lang = try read.string(K.lang)
        model.contributorsEnabled = try read.bool(K.contributorsEnabled)
        model.isTranslator = try read.bool(K.isTranslator)
        model.isTranslationEnabled = try read.bool(K.isTranslationEnabled)
        model.profileBackgroundColor = try read.string(K.profileBackgroundColor)
        model.profileBackgroundImageURL = try read.string(K.profileBackgroundImageURL)
        model.profileBackgroundImageURLHTTPS = try read.string(K.profileBackgroundImageURLHTTPS)
        model.profileBackgroundTile = try read.bool(K.profileBackgroundTile)
        model.profileImageURL = try read.string(K.profileImageURL)
        model.profileImageURLHTTPS = try read.string(K.profileImageURLHTTPS)
        model.profileBannerURL = try read.optionalString(K.profileBannerURL)
        model.profileLinkColor = try read.string(K.profileLinkColor)
        model.profileSidebarBorderColor = try read.string(K.profileSidebarBorderColor)
        model.profileSidebarFillColor = try read.string(K.profileSidebarFillColor)
        model.profileTextColor = try read.string(K.profileTextColor)
        model.profileUseBackgroundImage = try read.bool(K.profileUseBackgroundImage)
        model.defaultProfile = try read.bool(K.defaultProfile)
        model.defaultProfileImage = try read.bool(K.defaultProfileImage)
        model.following = try read.bool(K.following)
        model.followRequestSent = try read.bool(K.followRequestSent)
        model.notifications = try read.bool(K.notifications)
        return model
    }
}

public struct UserEntitiesFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["description"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> UserEntities {
        var read = FieldReader(object, context)
        var model = UserEntities()
        model.description = try read.model(K.description, URLListFactory()) ?? URLList()
        model.url = try read.model(K.url, URLListFactory())
        return model
    }
}

public struct URLListFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["urls"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> URLList {
        var read = FieldReader(object, context)
        var model = URLList()
        model.urls = try read.models(K.urls, TweetURLFactory()) ?? []
        return model
    }
}

public struct StatusEntitiesFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["hashtags", "urls", "user_mentions"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> StatusEntities {
        var read = FieldReader(object, context)
        var model = StatusEntities()
        model.hashtags = try read.models(K.hashtags, HashtagFactory()) ?? []
        if let symbols = try read.value(K.symbols), case .array(let elements) = symbols { model.symbols = elements }
        model.urls = try read.models(K.urls, TweetURLFactory()) ?? []
        model.userMentions = try read.models(K.userMentions, UserMentionFactory()) ?? []
        model.media = try read.models(K.media, MediaFactory())
        return model
    }
}

public struct HashtagFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["text", "indices"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> Hashtag {
        var read = FieldReader(object, context)
        var model = Hashtag()
        model.text = try read.string(K.text)
        model.indices = try read.ints(K.indices)
        return model
    }
}

public struct TweetURLFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["url", "expanded_url"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> TweetURL {
        var read = FieldReader(object, context)
        var model = TweetURL()
        model.url = try read.string(K.url)
        model.expandedURL = try read.string(K.expandedURL)
        model.displayURL = try read.string(K.displayURL)
        model.indices = try read.ints(K.indices)
        return model
    }
}

public struct UserMentionFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["screen_name", "id"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> UserMention {
        var read = FieldReader(object, context)
        var model = UserMention()
        model.screenName = try read.string(K.screenName)
        model.name = try read.string(K.name)
        model.id = try read.int64(K.id)
        model.idString = try read.string(K.idString)
        model.indices = try read.ints(K.indices)
        return model
    }
}

public struct MediaFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["media_url", "sizes"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> Media {
        var read = FieldReader(object, context)
        var model = Media()
        model.id = try read.int64(K.id)
        model.idString = try read.string(K.idString)
        model.indices = try read.ints(K.indices)
        model.mediaURL = try read.string(K.mediaURL)
        model.mediaURLHTTPS = try read.string(K.mediaURLHTTPS)
        model.url = try read.string(K.url)
        model.displayURL = try read.string(K.displayURL)
        model.expandedURL = try read.string(K.expandedURL)
        model.type = try read.string(K.type)
        model.sizes = try read.model(K.sizes, MediaSizesFactory()) ?? MediaSizes()
        model.sourceStatusID = try read.optionalInt64(K.sourceStatusID)
        model.sourceStatusIDString = try read.optionalString(K.sourceStatusIDString)
        return model
    }
}

public struct MediaSizesFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["medium", "small", "thumb", "large"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> MediaSizes {
        var read = FieldReader(object, context)
        var model = MediaSizes()
        model.medium = try read.model(K.medium, MediaSizeFactory()) ?? MediaSize()
        model.small = try read.model(K.small, MediaSizeFactory()) ?? MediaSize()
        model.thumb = try read.model(K.thumb, MediaSizeFactory()) ?? MediaSize()
        model.large = try read.model(K.large, MediaSizeFactory()) ?? MediaSize()
        return model
    }
}

public struct MediaSizeFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["w", "h", "resize"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> MediaSize {
        var read = FieldReader(object, context)
        var model = MediaSize()
        model.w = try read.int(K.w)
        model.h = try read.int(K.h)
        model.resize = try read.string(K.resize)
        return model
    }
}
