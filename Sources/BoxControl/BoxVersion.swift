/// The software's version, as debian/changelog's newest entry names it (a test keeps the two
/// equal); the caregiver bridge tells Home Assistant this.
public enum BoxVersion {
    public static let current = "0.12.0"
}
