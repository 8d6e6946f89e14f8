#if Vapor
    // Compiled only with the package trait `Vapor` (Package.swift): without it the target is empty.
    import Cartograph
    import CartographHTTP
    import Vapor

    extension HTTPMediaType {
        /// `application/x-plist`: an XML property list.
        public static let plist = HTTPMediaType(type: "application", subType: "x-plist")
        /// `application/x-bplist`: a binary property list.
        public static let binaryPlist = HTTPMediaType(type: "application", subType: "x-bplist")
    }

    extension ContentConfiguration {
        /// Registers Cartograph's coders for `.json`, `.plist` and `.binaryPlist`:
        /// `ContentConfiguration.global.useCartograph(mapper: App.mapper)` at start-up.
        public mutating func useCartograph(mapper: JSONMapper = JSONMapper(), propertyLists: PropertyListMapper? = nil) {
            let decoder = CartographContentDecoder(mapper: mapper, propertyLists: propertyLists)
            use(decoder: decoder, for: .json)
            use(decoder: decoder, for: .plist)
            use(decoder: decoder, for: .binaryPlist)
            use(encoder: CartographContentEncoder(format: .json, mapper: mapper, propertyLists: propertyLists), for: .json)
            use(encoder: CartographContentEncoder(format: .xmlPropertyList, mapper: mapper, propertyLists: propertyLists), for: .plist)
            use(encoder: CartographContentEncoder(format: .binaryPropertyList, mapper: mapper, propertyLists: propertyLists), for: .binaryPlist)
        }
    }
#endif
