import Testing
@testable import Cartograph
