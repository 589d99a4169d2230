@echo off
rem Runs the loom-matrix CLI on Windows, building it first when it is missing. Needs a JDK 21+ in JAVA_HOME.
setlocal
set "ROOT=%~dp0"
if "%JAVA_HOME%"=="" (
  echo loom-matrix: set JAVA_HOME to a JDK 21 or newer 1>&2
  exit /b 2
)
if not exist "%ROOT%runner\target\loom-matrix.jar" (
  echo loom-matrix: building ^(mvnw package^)... 1>&2
  pushd "%ROOT%"
  call mvnw.cmd -q -B package -DskipTests -Dspotless.check.skip=true 1>&2 || (popd & exit /b 1)
  popd
)
"%JAVA_HOME%\bin\java" -jar "%ROOT%runner\target\loom-matrix.jar" %*
