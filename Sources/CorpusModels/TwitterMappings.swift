// Cartograph Mappings for the twitter.json models: every field, explicit keys.
import Cartograph

extension TwitterResponse: Mappable {
    public static let mapping = Mapping<TwitterResponse>({ TwitterResponse() }) {
        Map(\.statuses, "statuses")
        Map(\.searchMetadata, "search_metadata")
    }
}

extension SearchMetadata: Mappable {
    public static let mapping = Mapping<SearchMetadata>({ SearchMetadata() }) {
        Map(\.completedIn, "completed_in")
        Map(\.maxID, "max_id")
        Map(\.maxIDString, "max_id_str")
        Map(\.nextResults, "next_results")
        Map(\.query, "query")
        Map(\.refreshURL, "refresh_url")
        Map(\.count, "count")
        Map(\.sinceID, "since_id")
        Map(\.sinceIDString, "since_id_str")
    }
}

extension Status: Mappable {
    public static let mapping = Mapping<Status>({ Status() }) {
        Map(\.metadata, "metadata")
        Map(\.createdAt, "created_at")
        Map(\.id, "id")
        Map(\.idString, "id_str")
        Map(\.text, "text")
        Map(\.source, "source")
        Map(\.truncated, "truncated")
        Map(\.inReplyToStatusID, "in_reply_to_status_id")
        Map(\.inReplyToStatusIDString, "in_reply_to_status_id_str")
        Map(\.inReplyToUserID, "in_reply_to_user_id")
        Map(\.inReplyToUserIDString, "in_reply_to_user_id_str")
        Map(\.inReplyToScreenName, "in_reply_to_screen_name")
        Map(\.user, "user")
        Map(\.geo, "geo")
        Map(\.coordinates, "coordinates")
        Map(\.place, "place")
        Map(\.contributors, "contributors")
        Map(\.retweetCount, "retweet_count")
        Map(\.favoriteCount, "favorite_count")
        Map(\.entities, "entities")
        Map(\.favorited, "favorited")
        Map(\.retweeted, "retweeted")
        Map(\.possiblySensitive, "possibly_sensitive")
        Map(\.lang, "lang")
        Map(\.retweetedStatus, "retweeted_status")
    }
}

extension RetweetedStatus: Mappable {
    public static let mapping = Mapping<RetweetedStatus>({ RetweetedStatus() }) {
        Map(\.metadata, "metadata")
        Map(\.createdAt, "created_at")
        Map(\.id, "id")
        Map(\.idString, "id_str")
        Map(\.text, "text")
        Map(\.source, "source")
        Map(\.truncated, "truncated")
        Map(\.inReplyToStatusID, "in_reply_to_status_id")
        Map(\.inReplyToStatusIDString, "in_reply_to_status_id_str")
        Map(\.inReplyToUserID, "in_reply_to_user_id")
        Map(\.inReplyToUserIDString, "in_reply_to_user_id_str")
        Map(\.inReplyToScreenName, "in_reply_to_screen_name")
        Map(\.user, "user")
        Map(\.geo, "geo")
        Map(\.coordinates, "coordinates")
        Map(\.place, "place")
        Map(\.contributors, "contributors")
        Map(\.retweetCount, "retweet_count")
        Map(\.favoriteCount, "favorite_count")
        Map(\.entities, "entities")
        Map(\.favorited, "favorited")
        Map(\.retweeted, "retweeted")
        Map(\.possiblySensitive, "possibly_sensitive")
        Map(\.lang, "lang")
    }
}

extension StatusMetadata: Mappable {
    public static let mapping = Mapping<StatusMetadata>({ StatusMetadata() }) {
        Map(\.resultType, "result_type")
        Map(\.isoLanguageCode, "iso_language_code")
    }
}

extension TwitterUser: Mappable {
    public static let mapping = Mapping<TwitterUser>({ TwitterUser() }) {
        Map(\.id, "id")
        Map(\.idString, "id_str")
        Map(\.name, "name")
        Map(\.screenName, "screen_name")
        Map(\.location, "location")
        Map(\.description, "description")
        Map(\.url, "url")
        Map(\.entities, "entities")
        Map(\.protected, "protected")
        Map(\.followersCount, "followers_count")
        Map(\.friendsCount, "friends_count")
        Map(\.listedCount, "listed_count")
        Map(\.createdAt, "created_at")
        Map(\.favouritesCount, "favourites_count")
        Map(\.utcOffset, "utc_offset")
        Map(\.timeZone, "time_zone")
        Map(\.geoEnabled, "geo_enabled")
        Map(\.verified, "verified")
        Map(\.statusesCount, "statuses_count")
        Map(\.lang, "lang")
        Map(\.contributorsEnabled, "contributors_enabled")
        Map(\.isTranslator, "is_translator")
        Map(\.isTranslationEnabled, "is_translation_enabled")
        Map(\.profileBackgroundColor, "profile_background_color")
        Map(\.profileBackgroundImageURL, "profile_background_image_url")
        Map(\.profileBackgroundImageURLHTTPS, "profile_background_image_url_https")
        Map(\.profileBackgroundTile, "profile_background_tile")
        Map(\.profileImageURL, "profile_image_url")
        Map(\.profileImageURLHTTPS, "profile_image_url_https")
        Map(\.profileBannerURL, "profile_banner_url")
        Map(\.profileLinkColor, "profile_link_color")
        Map(\.profileSidebarBorderColor, "profile_sidebar_border_color")
        Map(\.profileSidebarFillColor, "profile_sidebar_fill_color")
        Map(\.profileTextColor, "profile_text_color")
        Map(\.profileUseBackgroundImage, "profile_use_background_image")
        Map(\.defaultProfile, "default_profile")
        Map(\.defaultProfileImage, "default_profile_image")
        Map(\.following, "following")
        Map(\.followRequestSent, "follow_request_sent")
        Map(\.notifications, "notifications")
    }
}

extension UserEntities: Mappable {
    public static let mapping = Mapping<UserEntities>({ UserEntities() }) {
        Map(\.description, "description")
        Map(\.url, "url")
    }
}

extension URLList: Mappable {
    public static let mapping = Mapping<URLList>({ URLList() }) {
        Map(\.urls, "urls")
    }
}

extension StatusEntities: Mappable {
    public static let mapping = Mapping<StatusEntities>({ StatusEntities() }) {
        Map(\.hashtags, "hashtags")
        Map(\.symbols, "symbols")
        Map(\.urls, "urls")
        Map(\.userMentions, "user_mentions")
        Map(\.media, "media")
    }
}

extension Hashtag: Mappable {
    public static let mapping = Mapping<Hashtag>({ Hashtag() }) {
        Map(\.text, "text")
        Map(\.indices, "indices")
    }
}

extension TweetURL: Mappable {
    public static let mapping = Mapping<TweetURL>({ TweetURL() }) {
        Map(\.url, "url")
        Map(\.expandedURL, "expanded_url")
        Map(\.displayURL, "display_url")
        Map(\.indices, "indices")
    }
}

extension UserMention: Mappable {
    public static let mapping = Mapping<UserMention>({ UserMention() }) {
        Map(\.screenName, "screen_name")
        Map(\.name, "name")
        Map(\.id, "id")
        Map(\.idString, "id_str")
        Map(\.indices, "indices")
    }
}

extension Media: Mappable {
    public static let mapping = Mapping<Media>({ Media() }) {
        Map(\.id, "id")
        Map(\.idString, "id_str")
        Map(\.indices, "indices")
        Map(\.mediaURL, "media_url")
        Map(\.mediaURLHTTPS, "media_url_https")
        Map(\.url, "url")
        Map(\.displayURL, "display_url")
        Map(\.expandedURL, "expanded_url")
        Map(\.type, "type")
        Map(\.sizes, "sizes")
        Map(\.sourceStatusID, "source_status_id")
        Map(\.sourceStatusIDString, "source_status_id_str")
    }
}

extension MediaSizes: Mappable {
    public static let mapping = Mapping<MediaSizes>({ MediaSizes() }) {
        Map(\.medium, "medium")
        Map(\.small, "small")
        Map(\.thumb, "thumb")
        Map(\.large, "large")
    }
}

extension MediaSize: Mappable {
    public static let mapping = Mapping<MediaSize>({ MediaSize() }) {
        Map(\.w, "w")
        Map(\.h, "h")
        Map(\.resize, "resize")
    }
}

extension ModelRegistry {
    /// A registry with every twitter.json and canada.json model's Mapping.
    public static func corpusMappings() -> ModelRegistry {
        var registry = ModelRegistry()
        registry.register(TwitterResponse.self)
        registry.register(SearchMetadata.self)
        registry.register(Status.self)
        registry.register(RetweetedStatus.self)
        registry.register(StatusMetadata.self)
        registry.register(TwitterUser.self)
        registry.register(UserEntities.self)
        registry.register(URLList.self)
        registry.register(StatusEntities.self)
        registry.register(Hashtag.self)
        registry.register(TweetURL.self)
        registry.register(UserMention.self)
        registry.register(Media.self)
        registry.register(MediaSizes.self)
        registry.register(MediaSize.self)
        registry.register(FeatureCollection.self)
        registry.register(Feature.self)
        registry.register(Geometry.self)
        registry.register(ArticleList.self)
        registry.register(Article.self)
        registry.register(EventRecord.self)
        registry.register(UserDirectory.self)
        registry.register(DirectoryUser.self)
        return registry
    }
}
