@echo off
rem loom-matrix, installed from a release archive (issue #29): runs the CLI on Java 21 or newer, from
rem JAVA_HOME, else the java on PATH. No Maven, no source tree.
setlocal EnableDelayedExpansion
set "HOME_DIR=%~dp0.."
set "JAVA_EXE="
if defined JAVA_HOME if exist "%JAVA_HOME%\bin\java.exe" set "JAVA_EXE=%JAVA_HOME%\bin\java.exe"
if not defined JAVA_EXE for %%J in (java.exe) do if not "%%~$PATH:J"=="" set "JAVA_EXE=%%~$PATH:J"
if not defined JAVA_EXE (
  echo loom-matrix: needs Java 21 or newer, and found none ^(looked at JAVA_HOME and the java on PATH^). 1>&2
  echo   Install a JDK 21+ ^(e.g. Temurin: https://adoptium.net^) and set JAVA_HOME to it. 1>&2
  exit /b 2
)
rem the feature version: the first number of "java -version"'s quoted version ("21.0.5", or "1.8.0" for 8)
set "FEATURE="
for /f "tokens=3" %%V in ('"!JAVA_EXE!" -version 2^>^&1 ^| findstr /i "version"') do if not defined FEATURE set "FEATURE=%%~V"
for /f "delims=." %%F in ("!FEATURE!") do set "FEATURE=%%F"
if !FEATURE! LSS 21 (
  echo loom-matrix: needs Java 21 or newer; !JAVA_EXE! is Java !FEATURE!. Set JAVA_HOME to a JDK 21+. 1>&2
  exit /b 2
)
set "TESTCONTAINERS_RYUK_DISABLED=true"
set "CDS_DIR=%LOCALAPPDATA%\loom-matrix\cds"
if not exist "%CDS_DIR%" mkdir "%CDS_DIR%" 2>nul
"!JAVA_EXE!" -XX:SharedArchiveFile="%CDS_DIR%\loom-matrix.jsa" -XX:+AutoCreateSharedArchive -Xlog:cds=off -Xlog:cds+dynamic=off -Dloom.services="%HOME_DIR%\services" -Dloom.home="%HOME_DIR%" -jar "%HOME_DIR%\loom-matrix.jar" %*
exit /b %ERRORLEVEL%
