val jspecifyVersion: String by project

dependencies {
    // Annotations the helpers carry, and read at run time.
    implementation("org.jspecify:jspecify:$jspecifyVersion")
    testImplementation("org.junit.jupiter:junit-jupiter:5.10.2")
}
